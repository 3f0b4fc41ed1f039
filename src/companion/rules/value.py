"""A hand's value: what a profile makes of a reading's scores, and what the scorer ranks.

The scorer knows nothing of tai. It asks the profile for a value of each reading
(`Profile.value_of`) and keeps the greatest; so a value needs only to be ordered, compared for
equality (a tie goes to the profile's preference of readings, then to reading order) and
hashed (the plan remembers the payments of each value it settled). What a value holds, how it
meets the table's minimum, settles and shows in the result is the profile's to declare.

The counting profiles (sg, sg-table, tw, hk) count one whole number, capped or not: their value
is a `Count`. A profile that counts otherwise (han and fu ranked by points, fan with a minimum
that leaves flowers out) declares its own value type; tests/test_values.py scores one such
through the same scorer.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol


class HandValue(Protocol):
    """What the scorer needs of a profile's value: an order (the greater is the better reading),
    and equality and a hash consistent with it."""

    def __lt__(self, other: Any, /) -> bool: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __hash__(self) -> int: ...


class Count(NamedTuple):
    """The value of a hand in a counting profile: its settled count and the raw total of its
    patterns, named as the result names them (`tai`, in hk's faan too). A named tuple, ranked
    as one, settled count first: the scorer compares two readings' values in C, on every
    reading of every hand; and a count is the result's fields as it stands (`ValueFields`)."""

    tai: int
    """What the hand settles at: the raw total cut to the cap, or a limit hand's value."""
    raw_tai: int
    """The sum of the scored patterns' tai (or faan), before any cap."""


class ValueFields(Protocol):
    """The fields of a `ScoreResult` that a hand's value fills (`Profile.result_fields`)."""

    @property
    def tai(self) -> int:
        """What the hand settles at, in the profile's `unit`."""
        ...

    @property
    def raw_tai(self) -> int:
        """The patterns' total before the cap."""
        ...


class Shortfall(NamedTuple):
    """How a hand falls short of the table's minimum (`Profile.under_minimum`): what counted
    towards it, of what total, and the patterns left out of it, for the note a player reads
    (`note`, in English) and for an adapter to say it in the player's language."""

    counted: int
    """What the hand counts towards the minimum."""
    total: int
    """The hand's settled count (`tai`), the left-out patterns included."""
    minimum: int
    """The table's minimum."""
    unit: str
    """`tai` or `faan`."""
    left_out: tuple[tuple[str, str], ...] = ()
    """The patterns among the hand's scores that do not count towards the minimum, as (id,
    name), in the order scored."""

    @property
    def note(self) -> str:
        """`2 faan is under the table's minimum of 3`; with patterns left out: `2 of the 3 faan
        count toward the table's minimum of 3; No flowers does not`."""
        if not self.left_out:
            return f"{self.counted} {self.unit} is under the table's minimum of {self.minimum}"
        names = [name for _, name in self.left_out]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        verb = "does" if len(names) == 1 else "do"
        counts = "counts" if self.counted == 1 else "count"
        return (
            f"{self.counted} of the {self.total} {self.unit} {counts} toward the table's minimum "
            f"of {self.minimum}; {listed} {verb} not"
        )

    @property
    def key(self) -> str:
        """The note's message key: `minimum.short`, or `minimum.left_out` with patterns left
        out (their ids in `params`, `left_out_patterns`)."""
        return "minimum.left_out" if self.left_out else "minimum.short"

    @property
    def params(self) -> dict[str, Any]:
        return {
            "counted": self.counted,
            "total": self.total,
            "minimum": self.minimum,
            "left_out_patterns": [pattern_id for pattern_id, _ in self.left_out],
        }

    def to_json(self) -> dict[str, Any]:
        """The result's `short_of_minimum`: the parameters, `left_out` by that name, and the
        note."""
        params = self.params
        params["left_out"] = params.pop("left_out_patterns")
        params["note"] = self.note
        return params


__all__ = ["Count", "HandValue", "Shortfall", "ValueFields"]
