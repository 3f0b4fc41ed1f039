"""Patterns as data, and a profile's pattern table compiled for the scorer.

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
`companion.rules.facts.Feature`. `CompiledTable` turns a table into those tests once: for the
feature bits of a reading it runs only the predicates that can match, and applies `replaces`
and `includes` as precomputed masks of pattern positions.
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


def needs(*alternatives: int) -> Callable[[_P], _P]:
    """Declare what a reading must have for the predicate to match: feature bits, all of them
    needed, or several such masks of which any one will do. A necessary condition only: the
    predicate still decides."""

    def declare(predicate: _P) -> _P:
        predicate.needs = alternatives  # type: ignore[attr-defined]
        return predicate

    return declare


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


@dataclass(frozen=True, init=False)
class PatternScore:
    """A pattern as it scored in the chosen reading."""

    id: str
    name: str
    tai: int
    count: int
    items: tuple[object, ...]
    """The groups or tiles that earned it (their text is `earned_by`)."""
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
        self.__dict__.update(id=id, name=name, tai=tai, count=count, items=items, variant=variant)

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


class CompiledTable:
    """A pattern table as the scorer runs it: each pattern's needs as feature masks, its
    `replaces` as a mask of the positions it drops, its `includes` as the positions whose
    matches it may cover. Built once per table (`compiled`)."""

    __slots__ = (
        "_candidates",
        "includes",
        "including",
        "limit_ids",
        "patterns",
        "predicates",
        "replaces",
        "self_draw_ids",
    )

    def __init__(self, patterns: Sequence[Pattern]) -> None:
        self.patterns = tuple(patterns)
        self.predicates = tuple(pattern.predicate for pattern in self.patterns)
        position = {pattern.id: index for index, pattern in enumerate(self.patterns)}
        self.replaces = tuple(
            sum(1 << position[name] for name in pattern.replaces if name in position)
            for pattern in self.patterns
        )
        self.includes = tuple(
            tuple(position[name] for name in sorted(pattern.includes) if name in position)
            for pattern in self.patterns
        )
        self.including = sum(1 << index for index, found in enumerate(self.includes) if found)
        """The positions of the patterns that include others."""
        self.limit_ids = frozenset(pattern.id for pattern in self.patterns if pattern.limit)
        self.self_draw_ids = frozenset(
            pattern.id for pattern in self.patterns if pattern.settles_as_self_draw
        )
        self._candidates: dict[int, tuple[int, ...]] = {}

    def candidates(self, features: int) -> tuple[int, ...]:
        """The positions of the patterns whose needs these feature bits meet, in table order
        (worked out once per distinct set of features)."""
        found = self._candidates.get(features)
        if found is None:
            if len(self._candidates) > _MAX_FEATURE_SETS:
                self._candidates.clear()
            found = self._candidates[features] = tuple(
                index
                for index, pattern in enumerate(self.patterns)
                if any(not mask & ~features for mask in needs_of(pattern.predicate))
            )
        return found

    def evaluate(
        self, facts: Facts, features: int, overrides: Mapping[str, int]
    ) -> list[PatternScore]:
        """Run the table over one reading and apply its includes and replaces."""
        predicates, replaces = self.predicates, self.replaces
        fired: list[tuple[int, Sequence[Match]]] = []
        dropped = fired_mask = 0
        candidates = self._candidates.get(features)
        if candidates is None:
            candidates = self.candidates(features)
        for index in candidates:
            matches = predicates[index](facts)
            if matches:
                fired.append((index, matches))
                dropped |= replaces[index]
                fired_mask |= 1 << index
        covered: dict[int, list[frozenset[object]]] = {}
        if fired_mask & self.including:
            for index, matches in fired:
                for included in self.includes[index]:
                    covered.setdefault(included, []).extend(frozenset(m.items) for m in matches)
        patterns = self.patterns
        scores: list[PatternScore] = []
        for index, matches in fired:
            if dropped >> index & 1:
                continue
            pattern = patterns[index]
            if not covered and len(matches) == 1:
                (match,) = matches
                variant = match.variant
                if variant is None:
                    tai = overrides.get(pattern.id, pattern.tai) if overrides else pattern.tai
                else:
                    tai = pattern.tai_of(match, overrides)
                scores.append(PatternScore(pattern.id, pattern.name, tai, 1, match.items, variant))
                continue
            covers = covered.get(index) if covered else None
            kept = (
                [m for m in matches if not any(set(m.items) <= cover for cover in covers)]
                if covers
                else matches
            )
            if not kept:
                continue
            if len(kept) == 1:
                (match,) = kept
                tai = (
                    overrides.get(pattern.id, pattern.tai)
                    if match.variant is None
                    else pattern.tai_of(match, overrides)
                )
                items: tuple[object, ...] = match.items
                variant = match.variant
            else:
                tai = sum(pattern.tai_of(match, overrides) for match in kept)
                items = tuple(item for match in kept for item in match.items)
                variants = {match.variant for match in kept} - {None}
                variant = variants.pop() if len(variants) == 1 else None
            scores.append(PatternScore(pattern.id, pattern.name, tai, len(kept), items, variant))
        return scores

    def clear(self) -> None:
        self._candidates.clear()


_MAX_FEATURE_SETS = 1 << 16
"""Past this many distinct feature sets a table forgets its candidates and starts again."""

_COMPILED: dict[int, tuple[tuple[Pattern, ...], CompiledTable]] = {}


def compiled(patterns: tuple[Pattern, ...]) -> CompiledTable:
    """The compiled form of a pattern table, built on first use and kept with the table."""
    entry = _COMPILED.get(id(patterns))
    if entry is None or entry[0] is not patterns:
        entry = _COMPILED[id(patterns)] = (patterns, CompiledTable(patterns))
    return entry[1]


def clear_compiled() -> None:
    """Forget every table's candidates by feature set (for benchmarks that time a cold start)."""
    for _, table in _COMPILED.values():
        table.clear()


def evaluate(
    patterns: Sequence[Pattern], facts: Facts, overrides: Mapping[str, int]
) -> list[PatternScore]:
    """Run a pattern table over one reading and apply its includes and replaces."""
    table = compiled(patterns if isinstance(patterns, tuple) else tuple(patterns))
    return table.evaluate(facts, facts.features, overrides)
