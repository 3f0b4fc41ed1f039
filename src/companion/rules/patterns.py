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


def needs(
    *alternatives: int, decided: bool = False, count: Callable[[int], int] | None = None
) -> Callable[[_P], _P]:
    """Declare what a reading must have for the predicate to match: feature bits, all of them
    needed, or several such masks of which any one will do. A necessary condition only: the
    predicate still decides.

    `decided`: the bits are sufficient too. On a reading that has them, the predicate always
    returns exactly one match without a variant, and on no other; a compiled table then scores
    the pattern from the bits alone and runs the predicate only when the pattern's tiles are
    asked for (`PatternScore.items`). `CompiledTable.check_decided` holds the claim against the
    predicate (the differential tests run it on every seeded hand).

    `count`, with `decided`: the bits decide how many matches too, each without a variant, as
    this function of the reading's feature bits (one match when not given)."""

    def declare(predicate: _P) -> _P:
        predicate.needs = alternatives  # type: ignore[attr-defined]
        if decided:
            predicate.decided = True  # type: ignore[attr-defined]
            if count is not None:
                predicate.count = count  # type: ignore[attr-defined]
        return predicate

    return declare


def is_decided(predicate: Predicate) -> bool:
    """Whether the predicate's needs decide it (`needs(..., decided=True)`)."""
    return bool(getattr(predicate, "decided", False))


def count_of(predicate: Predicate) -> Callable[[int], int] | None:
    """How a decided predicate's matches are counted from the feature bits (None: one)."""
    found: Callable[[int], int] | None = getattr(predicate, "count", None)
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
    ) -> PatternScore:
        """A pattern scored `count` times, without a variant, whose tiles are found only when
        asked for: by running its predicate on the reading's facts (a decided pattern,
        `needs(..., decided=True)`). `facts` None: a score whose tiles are never asked for."""
        score = cls.__new__(cls)
        # Its `variant` (None), and `count` when 1, are the class's defaults.
        if count == 1:
            score.__dict__.update(id=id, name=name, tai=tai, _predicate=predicate, _facts=facts)
        else:
            score.__dict__.update(
                id=id, name=name, tai=tai, count=count, _predicate=predicate, _facts=facts
            )
        return score

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


class Decided(NamedTuple):
    """A table's whole outcome decided by a reading's feature bits (its undecided candidates
    matching nothing), the same for every reading with those bits under those overrides: each
    pattern that scores, in table order, and their total."""

    scored: tuple[dict[str, Any], ...]
    """The fields of each deferred score (`PatternScore.deferred`) but the reading's facts."""
    raw: int
    settling: list[PatternScore]
    """The scores without a reading, for settling (which reads their ids and tai only)."""

    def scores(self, facts: Facts | None) -> list[PatternScore]:
        """The scores on one reading, their tiles found from `facts` when asked for."""
        return _deferred_scores(self.scored, facts)


def _deferred_scores(scored: tuple[dict[str, Any], ...], facts: Facts | None) -> list[PatternScore]:
    made = []
    new = PatternScore.__new__
    for fields in scored:
        score = new(PatternScore)
        # As `PatternScore.deferred` makes them, from fields worked out once.
        values = score.__dict__
        values.update(fields)
        values["_facts"] = facts
        made.append(score)
    return made


_Open = tuple[tuple[int, Predicate], ...]
"""The positions and predicates of the candidates a reading's bits leave undecided."""


_Candidate = tuple[int, "Predicate | None"]
"""A pattern's position, and its predicate to run, or None when its needs decide it."""


class CompiledTable:
    """A pattern table as the scorer runs it: each pattern's needs as feature masks, its
    `replaces` as a mask of the positions it drops, its `includes` as the positions whose
    matches it may cover. Built once per table (`compiled`).

    For each distinct set of feature bits it works out once which patterns can match: those it
    must run, and those the bits decide (`needs(..., decided=True)`), scored without running."""

    __slots__ = (
        "_candidates",
        "_decided",
        "counts",
        "decided",
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
        self.decided = tuple(is_decided(predicate) for predicate in self.predicates)
        self.counts = tuple(count_of(predicate) for predicate in self.predicates)
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
        self._candidates: dict[int, tuple[_Candidate, ...]] = {}
        self._decided: dict[tuple[int, tuple[tuple[str, int], ...]], tuple[_Open, Decided | None]]
        self._decided = {}

    def candidates(self, features: int) -> tuple[int, ...]:
        """The positions of the patterns whose needs these feature bits meet, in table order."""
        return tuple(index for index, _ in self._candidates_of(features))

    def _candidates_of(self, features: int) -> tuple[_Candidate, ...]:
        """`candidates`, each with its predicate or None when decided (worked out once per
        distinct set of features)."""
        found = self._candidates.get(features)
        if found is None:
            if len(self._candidates) > _MAX_FEATURE_SETS:
                self._candidates.clear()
            found = self._candidates[features] = tuple(
                (index, None if self.decided[index] else pattern.predicate)
                for index, pattern in enumerate(self.patterns)
                if any(not mask & ~features for mask in needs_of(pattern.predicate))
            )
        return found

    def decided_outcome(
        self, features: int, overrides: Mapping[str, int]
    ) -> tuple[_Open, Decided | None]:
        """What the bits leave open on a reading with these feature bits: the candidates whose
        predicates must run (position, predicate), and the outcome of `evaluate` when none of
        them matches, or None when even then the tiles are needed (a decided candidate includes
        others, and covering is a matter of tiles). Worked out once per features and overrides
        (compared by value)."""
        key = (features, tuple(sorted(overrides.items())) if overrides else ())
        found = self._decided.get(key)
        if found is None:
            if len(self._decided) > _MAX_FEATURE_SETS:
                self._decided.clear()
            found = self._decided[key] = self._decided_outcome(features, overrides)
        return found

    def _decided_outcome(
        self, features: int, overrides: Mapping[str, int]
    ) -> tuple[_Open, Decided | None]:
        candidates = self._candidates_of(features)
        open_ = tuple(
            (index, predicate) for index, predicate in candidates if predicate is not None
        )
        fired_mask = dropped = 0
        for index, predicate in candidates:
            if predicate is None:
                fired_mask |= 1 << index
                dropped |= self.replaces[index]
        if fired_mask & self.including:
            return open_, None
        scored = []
        for index, predicate in candidates:
            if predicate is not None or dropped >> index & 1:
                continue
            pattern = self.patterns[index]
            count = self._count(index, features)
            tai = overrides.get(pattern.id, pattern.tai) if overrides else pattern.tai
            fields: dict[str, Any] = {
                "id": pattern.id,
                "name": pattern.name,
                "tai": count * tai,
                "_predicate": pattern.predicate,
            }
            if count != 1:
                fields["count"] = count
            scored.append(fields)
        fields_of = tuple(scored)
        raw = sum(fields["tai"] for fields in scored)
        return open_, Decided(fields_of, raw, _deferred_scores(fields_of, None))

    @staticmethod
    def first_match(
        facts: Facts, open_: tuple[tuple[int, Predicate], ...]
    ) -> tuple[int, Sequence[Match]] | None:
        """The first of these predicates to match on the reading, with its matches."""
        for index, predicate in open_:
            matches = predicate(facts)
            if matches:
                return index, matches
        return None

    def _count(self, index: int, features: int) -> int:
        """How many times a decided pattern scores on a reading with these bits."""
        count_of = self.counts[index]
        return 1 if count_of is None else count_of(features)

    def evaluate(
        self,
        facts: Facts,
        features: int,
        overrides: Mapping[str, int],
        first: tuple[int, Sequence[Match]] | None = None,
    ) -> list[PatternScore]:
        """Run the table over one reading and apply its includes and replaces. `first`: the
        position and matches of the first predicate to run that matched, those before it
        having matched nothing (`first_match`)."""
        replaces = self.replaces
        fired: list[tuple[int, Sequence[Match] | None]] = []
        dropped = fired_mask = 0
        candidates = self._candidates.get(features)
        if candidates is None:
            candidates = self._candidates_of(features)
        ran = -1 if first is None else first[0]
        for index, predicate in candidates:
            if predicate is None:
                matches = None
            elif index < ran:
                continue
            else:
                matches = first[1] if first is not None and index == ran else predicate(facts)
            if predicate is None or matches:
                fired.append((index, matches))
                dropped |= replaces[index]
                fired_mask |= 1 << index
        patterns = self.patterns
        counts = self.counts
        if fired_mask & self.including:
            return self._with_includes(facts, fired, dropped, overrides)
        scores: list[PatternScore] = []
        for index, found in fired:
            if dropped >> index & 1:
                continue
            pattern = patterns[index]
            if found is None:
                tai = overrides.get(pattern.id, pattern.tai) if overrides else pattern.tai
                count_of = counts[index]
                count = 1 if count_of is None else count_of(features)
                scores.append(
                    PatternScore.deferred(
                        pattern.id, pattern.name, count * tai, self.predicates[index], facts, count
                    )
                )
            elif len(found) == 1:
                (match,) = found
                variant = match.variant
                if variant is None:
                    tai = overrides.get(pattern.id, pattern.tai) if overrides else pattern.tai
                else:
                    tai = pattern.tai_of(match, overrides)
                scores.append(PatternScore(pattern.id, pattern.name, tai, 1, match.items, variant))
            else:
                scores.append(_score_of(pattern, found, overrides))
        return scores

    def _with_includes(
        self,
        facts: Facts,
        fired: list[tuple[int, Sequence[Match] | None]],
        dropped: int,
        overrides: Mapping[str, int],
    ) -> list[PatternScore]:
        """The scores when a pattern that includes others fired: every match is needed to
        see which matches it covers, so decided patterns are run too."""
        predicates = self.predicates
        run = [
            (index, predicates[index](facts) if found is None else found) for index, found in fired
        ]
        covered: dict[int, list[frozenset[object]]] = {}
        for index, matches in run:
            for included in self.includes[index]:
                covered.setdefault(included, []).extend(frozenset(m.items) for m in matches)
        scores: list[PatternScore] = []
        for index, matches in run:
            if dropped >> index & 1:
                continue
            covers = covered.get(index)
            kept = (
                [m for m in matches if not any(set(m.items) <= cover for cover in covers)]
                if covers
                else matches
            )
            if kept:
                scores.append(_score_of(self.patterns[index], kept, overrides))
        return scores

    def check_decided(self, facts: Facts, features: int) -> list[str]:
        """What is wrong with the decided patterns' claim on this reading: each decided pattern
        whose needs the bits meet must return exactly one match without a variant, and one
        whose needs they do not meet no match. Empty when the claim holds (a test check)."""
        wrong: list[str] = []
        candidates = {index for index, _ in self._candidates_of(features)}
        for index, pattern in enumerate(self.patterns):
            if not self.decided[index]:
                continue
            matches = pattern.predicate(facts)
            if index in candidates:
                count = self._count(index, features)
                if len(matches) != count or any(m.variant is not None for m in matches):
                    wrong.append(f"{pattern.id}: decided {count}, but {len(matches)} matches")
            elif matches:
                wrong.append(f"{pattern.id}: needs not met, but it matched")
        return wrong

    def clear(self) -> None:
        self._candidates.clear()
        self._decided.clear()


def _score_of(
    pattern: Pattern, kept: Sequence[Match], overrides: Mapping[str, int]
) -> PatternScore:
    """A pattern's score from the matches it keeps."""
    if len(kept) == 1:
        (match,) = kept
        tai = (
            overrides.get(pattern.id, pattern.tai)
            if match.variant is None
            else pattern.tai_of(match, overrides)
        )
        return PatternScore(pattern.id, pattern.name, tai, 1, match.items, match.variant)
    tai = sum(pattern.tai_of(match, overrides) for match in kept)
    items = tuple(item for match in kept for item in match.items)
    variants = {match.variant for match in kept} - {None}
    variant = variants.pop() if len(variants) == 1 else None
    return PatternScore(pattern.id, pattern.name, tai, len(kept), items, variant)


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
