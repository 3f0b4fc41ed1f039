"""Patterns as data: the values a profile's pattern table is made of.

A pattern is a value: an id (docs/contract.md), a display name, its tai per match, a predicate over
the facts of one reading, and what it includes or replaces. Exclusions are declared on the
pattern that wins them, never expressed by the order of checks:

- `replaces`: when this pattern scores, the named patterns do not score at all
  (Ping Hu replaces Little Ping Hu).
- `includes`: when this pattern scores, any match of a named pattern whose tiles are all among
  this pattern's tiles does not score (Little dragons includes its two dragon sets; the flower
  set includes the seat flower of its family but not the seat season).

Both are computed from the set of patterns that qualify, so their order never matters.

A predicate may declare what a reading needs before it can match (`needs`), as feature bits of
`companion.rules.facts.Feature`; `companion.rules.compiled` turns a table into those tests once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from companion.shapes import Group
from companion.tiles import Tile

if TYPE_CHECKING:
    from companion.rules.facts import Facts


class Match(NamedTuple):
    """One occurrence of a pattern: the tiles or groups that earned it. (A named tuple: the
    scorer makes one per pattern that fires, and a tuple is the cheapest value to make.)"""

    items: tuple[Group | Tile, ...]
    """The groups or tiles that earned it; shown as MPSZ (`777z`, `1f`) only when reported."""
    variant: str | None = None
    """A named alternative value of the pattern (`concealed` for a concealed pure straight)."""


Predicate = Callable[["Facts"], Sequence[Match]]
_P = TypeVar("_P", bound=Callable[..., Any])

ALWAYS: tuple[int, ...] = (0,)
"""The needs of a predicate that declares none: it runs on every reading."""


def needs(
    *alternatives: int,
    decided: bool = False,
    count: Callable[[int], int] | None = None,
    variants: Callable[[int], tuple[str | None, ...]] | None = None,
) -> Callable[[_P], _P]:
    """Declare what a reading must have for the predicate to match: feature bits, all of them
    needed, or several such masks of which any one will do. A necessary condition only: the
    predicate still decides.

    `decided`: the bits are sufficient too. On a reading that has them, the predicate always
    returns exactly one match without a variant (unless `count` or `variants` say otherwise),
    and on no other; a compiled table then scores
    the pattern from the bits alone and runs the predicate only when the pattern's tiles are
    asked for (`PatternScore.items`). `CompiledTable.check_decided` holds the claim against the
    predicate (tests/test_seeded_hands.py runs it on every seeded hand).

    `count`, with `decided`: the bits decide how many matches too, each without a variant, as
    this function of the reading's feature bits (one match when not given).

    `variants`, with `decided` and instead of `count`: the bits decide each match's variant
    too, as this function of the reading's feature bits (one variant per match, so its length
    is the count). Compared as a multiset: a pattern's score reads its matches' variants as a
    total of tai, a count and the one variant they share, none of which depends on order."""
    if variants is not None and (count is not None or not decided):
        raise ValueError("variants are declared with decided=True and instead of count")

    def declare(predicate: _P) -> _P:
        predicate.needs = alternatives  # type: ignore[attr-defined]
        if decided:
            predicate.decided = True  # type: ignore[attr-defined]
            if count is not None:
                predicate.count = count  # type: ignore[attr-defined]
            if variants is not None:
                predicate.variants = variants  # type: ignore[attr-defined]
        return predicate

    return declare


def is_decided(predicate: Predicate) -> bool:
    """Whether the predicate's needs decide it (`needs(..., decided=True)`)."""
    return bool(getattr(predicate, "decided", False))


def count_of(predicate: Predicate) -> Callable[[int], int] | None:
    """How a decided predicate's matches are counted from the feature bits (None: one)."""
    found: Callable[[int], int] | None = getattr(predicate, "count", None)
    return found


def variants_of(predicate: Predicate) -> Callable[[int], tuple[str | None, ...]] | None:
    """How a decided predicate's matches' variants are read from the feature bits (None:
    every match without one)."""
    found: Callable[[int], tuple[str | None, ...]] | None = getattr(predicate, "variants", None)
    return found


def needs_of(predicate: Predicate) -> tuple[int, ...]:
    found: tuple[int, ...] = getattr(predicate, "needs", ALWAYS)
    return found


def ids(*names: str) -> frozenset[str]:
    """Pattern ids, for a pattern's `includes` and `replaces`."""
    return frozenset(names)


@dataclass(frozen=True)
class Pattern:
    id: str
    name: str
    tai: int
    """Tai per match."""
    predicate: Predicate
    includes: frozenset[str] = frozenset()
    replaces: frozenset[str] = frozenset()
    variants: Mapping[str, int] = field(default_factory=dict)
    """Tai of a match with that variant instead of `tai`."""
    limit: bool = False
    """A limit hand: when it scores, its value is the hand's settled tai, beyond the cap."""
    settles_as_self_draw: bool = False
    """When it scores, a discard win is settled as a self-draw (Thirteen orphans in sg-table)."""

    def tai_of(self, match: Match, overrides: Mapping[str, int]) -> int:
        if match.variant is not None and match.variant in self.variants:
            key = f"{self.id}.{match.variant}"
            return overrides.get(key, self.variants[match.variant])
        return overrides.get(self.id, self.tai)

    def with_changes(self, **changes: Any) -> Pattern:
        return dataclasses.replace(self, **changes)


PatternChanges = Mapping[str, Mapping[str, Any]]
"""Changes to a pattern table by pattern id: `Pattern.with_changes` arguments."""


def derive_patterns(
    base: Sequence[Pattern], changes: PatternChanges, additions: Sequence[Pattern] = ()
) -> tuple[Pattern, ...]:
    """`base` with the named patterns changed in place and `additions` appended. An id that
    `base` lacks, or an addition whose id `base` already has, is a programming error."""
    known = {pattern.id for pattern in base}
    unknown = set(changes) - known
    if unknown:
        raise ValueError(f"no such patterns to change: {', '.join(sorted(unknown))}")
    clashes = known & {pattern.id for pattern in additions}
    if clashes:
        raise ValueError(f"patterns added twice: {', '.join(sorted(clashes))}")
    changed = tuple(
        pattern.with_changes(**changes[pattern.id]) if pattern.id in changes else pattern
        for pattern in base
    )
    return (*changed, *additions)


_new = object.__new__
_set_attribute = object.__setattr__


@dataclass(frozen=True, init=False, eq=False, repr=False)
class PatternScore:
    """A pattern as it scored in the chosen reading."""

    id: str
    name: str
    tai: int
    count: int = 1
    variant: str | None = None

    def __init__(
        self,
        id: str,  # the pattern's id, as the contract names it
        name: str,
        tai: int,
        count: int,
        items: tuple[object, ...],
        variant: str | None = None,
    ) -> None:
        # One dict update rather than a frozen dataclass's six object.__setattr__ calls: the
        # scorer makes one for every pattern of every hand.
        self.__dict__.update(id=id, name=name, tai=tai, count=count, _items=items, variant=variant)

    @classmethod
    def deferred(
        cls,
        id: str,
        name: str,
        tai: int,
        predicate: Predicate,
        facts: Facts | None,
        count: int = 1,
        variant: str | None = None,
    ) -> PatternScore:
        """A pattern scored `count` times, with that variant, whose tiles are found only when
        asked for: by running its predicate on the reading's facts (a decided pattern,
        `needs(..., decided=True)`). `facts` None: a score whose tiles are never asked for."""
        return cls.from_fields(cls.deferred_fields(id, name, tai, predicate, count, variant), facts)

    @staticmethod
    def deferred_fields(
        id: str,
        name: str,
        tai: int,
        predicate: Predicate,
        count: int = 1,
        variant: str | None = None,
    ) -> dict[str, Any]:
        """The fields of a `deferred` score but the reading's facts, worked out once for every
        reading that scores it the same way (`from_fields` makes each score)."""
        # Its `variant` when None, and `count` when 1, are the class's defaults. The facts'
        # place is held (None) so that a copy takes them without growing.
        fields: dict[str, Any] = {"id": id, "name": name, "tai": tai, "_predicate": predicate}
        if count != 1:
            fields["count"] = count
        if variant is not None:
            fields["variant"] = variant
        fields["_facts"] = None
        return fields

    @classmethod
    def from_fields(cls, fields: dict[str, Any], facts: Facts | None) -> PatternScore:
        """A deferred score from its `deferred_fields` and the reading's facts."""
        score = _new(cls)
        # A copy of the fields becomes its attributes at once (a frozen dataclass refuses the
        # assignment but through object's own): the scorer makes one per pattern of a hand,
        # and copying a dict whole is the cheapest way to make one.
        values = fields.copy()
        values["_facts"] = facts
        _set_attribute(score, "__dict__", values)
        return score

    @classmethod
    def all_from_fields(
        cls, scored: Sequence[dict[str, Any]], facts: Facts | None
    ) -> list[PatternScore]:
        """`from_fields` of each of these fields, on one reading (one call for a hand's
        decided scores)."""
        scores: list[PatternScore] = []
        for fields in scored:
            score = _new(cls)
            values = fields.copy()
            values["_facts"] = facts
            _set_attribute(score, "__dict__", values)
            scores.append(score)
        return scores

    @property
    def items(self) -> tuple[object, ...]:
        """The groups or tiles that earned it (their text is `earned_by`)."""
        found: tuple[object, ...] | None = self.__dict__.get("_items")
        if found is None:
            matches = self.__dict__["_predicate"](self.__dict__["_facts"])
            found = (
                matches[0].items
                if len(matches) == 1
                else tuple([item for match in matches for item in match.items])
            )
            self.__dict__["_items"] = found
        return found

    def _key(self) -> tuple[object, ...]:
        return (self.id, self.name, self.tai, self.count, self.items, self.variant)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PatternScore):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"PatternScore(id={self.id!r}, name={self.name!r}, tai={self.tai!r}, "
            f"count={self.count!r}, items={self.items!r}, variant={self.variant!r})"
        )

    @property
    def earned_by(self) -> tuple[str, ...]:
        """MPSZ of each group or tile that earned it, e.g. `("777z", "666z")`."""
        return tuple([str(item) for item in self.items])

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "tai": self.tai,
            "count": self.count,
            "earned_by": list(self.earned_by),
        }
        if self.variant is not None:
            data["variant"] = self.variant
        return data
