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


__all__ = ["Count", "HandValue", "ValueFields"]
