"""A profile's pattern table compiled for the scorer.

`CompiledTable` turns a table of `companion.rules.patterns.Pattern` values into tests on feature
bits, once: for the feature bits of a reading it runs only the predicates that can match,
scores the patterns those bits decide without running them, and applies `replaces` and
`includes` as precomputed masks of pattern positions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.rules.features import COUNT_BITS
from companion.rules.patterns import (
    Match,
    Pattern,
    PatternScore,
    Predicate,
    count_of,
    is_decided,
    needs_of,
    variants_of,
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
        return _all_from_fields(self.scored, facts)


_all_from_fields = PatternScore.all_from_fields


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
        "_evaluated",
        "_fields",
        "_needs",
        "counts",
        "decided",
        "includes",
        "including",
        "limit_ids",
        "patterns",
        "predicates",
        "reads",
        "replaces",
        "self_draw_ids",
        "variants",
    )

    def __init__(self, patterns: Sequence[Pattern]) -> None:
        self.patterns = tuple(patterns)
        self.predicates = tuple(pattern.predicate for pattern in self.patterns)
        self.decided = tuple(is_decided(predicate) for predicate in self.predicates)
        self.counts = tuple(count_of(predicate) for predicate in self.predicates)
        self.variants = tuple(variants_of(predicate) for predicate in self.predicates)
        reads = COUNT_BITS
        for predicate in self.predicates:
            for mask in needs_of(predicate):
                reads |= mask
        self.reads = reads
        """Every feature bit the table's needs test, and the counting bits: two readings alike
        in these have one outcome, so memos keyed by features are keyed by `features & reads`
        (a bit no pattern asks about, such as a role none rewards, would only split them)."""
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
        self._needs = tuple(
            (
                needs_of(predicate)[0],
                needs_of(predicate)[1:],
                (index, None if decided else predicate),
            )
            for index, (predicate, decided) in enumerate(
                zip(self.predicates, self.decided, strict=True)
            )
        )
        """Each pattern's first needs, its other needs, and its candidate entry: a pattern is a
        candidate when the bits meet one of its needs (the first most often the only one)."""
        self._candidates: dict[int, tuple[_Candidate, ...]] = {}
        self._fields: dict[tuple[int, object, tuple[tuple[str, int], ...]], dict[str, Any]]
        self._fields = {}
        """A decided pattern's deferred fields by its position, its count or variants, and
        the overrides (the same for every feature set that scores it alike)."""
        self._decided: dict[tuple[int, tuple[tuple[str, int], ...]], tuple[_Open, Decided | None]]
        self._decided = {}
        self._evaluated: dict[tuple[int, tuple[tuple[str, int], ...], tuple[object, ...]], Any]
        self._evaluated = {}
        """`_Evaluated` outcomes by features, overrides and the signature of the open
        predicates that matched (None: a pattern that includes others fired)."""

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
            missing = ~features
            found = self._candidates[features] = tuple(
                [
                    candidate
                    for first_needs, other_needs, candidate in self._needs
                    if not first_needs & missing
                    or (other_needs and any(not needs & missing for needs in other_needs))
                ]
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
        scored = [
            self._decided_fields(index, features, overrides)
            for index, predicate in candidates
            if predicate is None and not dropped >> index & 1
        ]
        fields_of = tuple(scored)
        raw = sum(fields["tai"] for fields in scored)
        return open_, Decided(fields_of, raw, _all_from_fields(fields_of, None))

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
        variants = self.variants[index]
        if variants is not None:
            return len(variants(features))
        count_of = self.counts[index]
        return 1 if count_of is None else count_of(features)

    def _decided_fields(
        self, index: int, features: int, overrides: Mapping[str, int]
    ) -> dict[str, Any]:
        """The deferred score's fields (`PatternScore.deferred_fields`) of a decided pattern on
        a reading with these bits: its count, tai and variant as `_score_of` makes them."""
        variants = self.variants[index]
        shape: object = self._count(index, features) if variants is None else variants(features)
        key = (index, shape, tuple(sorted(overrides.items())) if overrides else ())
        found = self._fields.get(key)
        if found is None:
            if len(self._fields) > _MAX_FEATURE_SETS:
                self._fields.clear()
            found = self._fields[key] = self._fields_of(index, features, overrides)
        return found

    def _fields_of(self, index: int, features: int, overrides: Mapping[str, int]) -> dict[str, Any]:
        pattern = self.patterns[index]
        variants = self.variants[index]
        if variants is None:
            count = self._count(index, features)
            tai = overrides.get(pattern.id, pattern.tai) if overrides else pattern.tai
            return PatternScore.deferred_fields(
                pattern.id, pattern.name, count * tai, pattern.predicate, count
            )
        # Matches without tiles, carrying the variants the bits decide: the tai, count and
        # variant of the score are `_score_of`'s own.
        matches = [Match((), variant) for variant in variants(features)]
        score = _score_of(pattern, matches, overrides)
        return PatternScore.deferred_fields(
            pattern.id, pattern.name, score.tai, pattern.predicate, score.count, score.variant
        )

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
        return self.evaluated(facts, features, overrides, first).scores(facts)

    def evaluated(
        self,
        facts: Facts,
        features: int,
        overrides: Mapping[str, int],
        first: tuple[int, Sequence[Match]] | None = None,
    ) -> Evaluated:
        """`evaluate`'s outcome on one reading without its scores made: its total (`raw`), the
        scores for settling (`settling`, ids and tai only) and `scores(facts)`, which makes
        them for the reading chosen. It runs the open predicates (from `first` on) and looks
        the rest up: unless a pattern that includes others fires, the outcome is the same for
        every reading with these bits and overrides whose open predicates match at the same
        positions the same number of times with the same variants."""
        candidates = self._candidates.get(features)
        if candidates is None:
            candidates = self._candidates_of(features)
        ran = -1 if first is None else first[0]
        found: list[Sequence[Match]] = []
        signature: list[object] = []
        for index, predicate in candidates:
            if predicate is None or index < ran:
                continue
            matches = first[1] if first is not None and index == ran else predicate(facts)
            if matches:
                found.append(matches)
                signature.append(index)
                signature.append(
                    matches[0].variant
                    if len(matches) == 1
                    else tuple([match.variant for match in matches])
                )
        key = (
            features,
            tuple(sorted(overrides.items())) if overrides else (),
            tuple(signature),
        )
        outcome = self._evaluated.get(key, _UNKNOWN)
        if outcome is _UNKNOWN:
            if len(self._evaluated) > _MAX_FEATURE_SETS:
                self._evaluated.clear()
            outcome = self._evaluated[key] = self._outcome_of(
                features, overrides, signature[::2], found
            )
        if outcome is None:
            return _Listed(self._evaluate_now(facts, features, overrides, first))
        return Evaluated(outcome, found)

    def _outcome_of(
        self,
        features: int,
        overrides: Mapping[str, int],
        positions: list[Any],
        found: list[Sequence[Match]],
    ) -> _Outcome | None:
        """The outcome when the open predicates at `positions` matched `found`, the others
        nothing: None when a pattern that includes others fires (covering is a matter of
        tiles)."""
        slot_of = {index: slot for slot, index in enumerate(positions)}
        fired_mask = dropped = 0
        for index, predicate in self._candidates_of(features):
            if predicate is None or index in slot_of:
                fired_mask |= 1 << index
                dropped |= self.replaces[index]
        if fired_mask & self.including:
            return None
        entries: list[dict[str, Any] | tuple[int, str, str, int, int, str | None]] = []
        settling: list[PatternScore] = []
        raw = 0
        for index, predicate in self._candidates_of(features):
            if not fired_mask >> index & 1 or dropped >> index & 1:
                continue
            if predicate is None:
                fields = self._decided_fields(index, features, overrides)
                entries.append(fields)
                score = PatternScore.from_fields(fields, None)
            else:
                slot = slot_of[index]
                score = _score_of(self.patterns[index], found[slot], overrides)
                entries.append((slot, score.id, score.name, score.tai, score.count, score.variant))
            settling.append(score)
            raw += score.tai
        return _Outcome(tuple(entries), raw, settling)

    def _evaluate_now(
        self,
        facts: Facts,
        features: int,
        overrides: Mapping[str, int],
        first: tuple[int, Sequence[Match]] | None = None,
    ) -> list[PatternScore]:
        """`evaluate` worked out on the reading, without the memo (a pattern that includes
        others fired)."""
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
                fields = self._decided_fields(index, features, overrides)
                scores.append(PatternScore.from_fields(fields, facts))
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
        whose needs the bits meet must return as many matches as the bits say (one unless its
        `count` or `variants` say otherwise), with the variants its `variants` say (as a
        multiset; none without), and one whose needs they do not meet no match. Empty when the
        claim holds (a test check)."""
        wrong: list[str] = []
        candidates = {index for index, _ in self._candidates_of(features)}
        for index, pattern in enumerate(self.patterns):
            if not self.decided[index]:
                continue
            matches = pattern.predicate(facts)
            if index in candidates:
                count = self._count(index, features)
                variants_of = self.variants[index]
                claimed = [None] * count if variants_of is None else list(variants_of(features))
                got = [m.variant for m in matches]
                if len(matches) != count or sorted(map(str, got)) != sorted(map(str, claimed)):
                    wrong.append(
                        f"{pattern.id}: decided {count} matches with variants {claimed}, but "
                        f"{len(matches)} with {got}"
                    )
            elif matches:
                wrong.append(f"{pattern.id}: needs not met, but it matched")
        return wrong

    def clear(self) -> None:
        self._fields.clear()
        self._candidates.clear()
        self._decided.clear()
        self._evaluated.clear()


class _Outcome(NamedTuple):
    """What `CompiledTable.evaluated` remembers of a table's outcome: each pattern that scores,
    in table order, as the fields of its deferred score (a decided pattern) or as the slot of
    its matches among the open predicates that matched, with its id, name, tai, count and
    variant; their total; the scores for settling."""

    entries: tuple[dict[str, Any] | tuple[int, str, str, int, int, str | None], ...]
    raw: int
    settling: list[PatternScore]


class Evaluated:
    """A table's outcome on one reading (`CompiledTable.evaluated`): its total (`raw`) and the
    scores for settling known, each PatternScore made only by `scores`, for the reading chosen
    (as `Decided` does)."""

    __slots__ = ("_entries", "_found", "raw", "settling")

    def __init__(self, outcome: _Outcome, found: Sequence[Sequence[Match]]) -> None:
        self._entries = outcome.entries
        self._found = found
        self.raw = outcome.raw
        self.settling: Sequence[PatternScore] = outcome.settling

    def scores(self, facts: Facts | None) -> list[PatternScore]:
        """The scores on the reading whose facts these are."""
        found = self._found
        from_fields = PatternScore.from_fields
        scores: list[PatternScore] = []
        for entry in self._entries:
            if isinstance(entry, dict):
                scores.append(from_fields(entry, facts))
                continue
            slot, id, name, tai, count, variant = entry
            matches = found[slot]
            items = (
                matches[0].items
                if len(matches) == 1
                else tuple([item for match in matches for item in match.items])
            )
            scores.append(PatternScore(id, name, tai, count, items, variant))
        return scores


class _Listed(Evaluated):
    """An outcome worked out on the reading itself (a pattern that includes others fired)."""

    __slots__ = ("_scores",)

    def __init__(self, scores: list[PatternScore]) -> None:
        self._scores = scores
        self.raw = sum([score.tai for score in scores])
        self.settling = scores

    def scores(self, facts: Facts | None) -> list[PatternScore]:
        return self._scores


_UNKNOWN: Any = object()


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
