"""A profile's pattern table compiled for the scorer.

`CompiledTable` turns a table of `companion.rules.patterns.Pattern` values into tests on feature
bits, once: for the feature bits of a reading it runs only the predicates that can match,
scores the patterns those bits decide without running them, and applies `replaces` and
`includes` as precomputed masks of pattern positions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.rules.patterns import (
    Match,
    Pattern,
    PatternScore,
    Predicate,
    count_of,
    is_decided,
    needs_of,
)

if TYPE_CHECKING:
    from companion.rules.facts import Facts


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
        from_fields = _from_fields
        return [from_fields(fields, facts) for fields in self.scored]


_from_fields = PatternScore.from_fields


def _deferred_scores(scored: tuple[dict[str, Any], ...], facts: Facts | None) -> list[PatternScore]:
    return [_from_fields(fields, facts) for fields in scored]


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
            scored.append(
                PatternScore.deferred_fields(
                    pattern.id, pattern.name, count * tai, pattern.predicate, count
                )
            )
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
        if fired_mask & self.including:
            return self._with_includes(facts, fired, dropped, overrides)
        scores: list[PatternScore] = []
        for index, found in fired:
            if dropped >> index & 1:
                continue
            pattern = patterns[index]
            if found is None:
                tai = overrides.get(pattern.id, pattern.tai) if overrides else pattern.tai
                count = self._count(index, features)
                scores.append(
                    PatternScore.deferred(
                        pattern.id, pattern.name, count * tai, self.predicates[index], facts, count
                    )
                )
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
