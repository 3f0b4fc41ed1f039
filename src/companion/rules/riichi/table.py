"""Riichi's yaku table compiled for the scorer: a reading's yaku looked up by its features.

Each yaku's predicate declares (`companion.rules.patterns.needs`) the feature bits
(`features.py`) a reading needs for it to match, and for all but one that those bits decide
it: then it is scored from the bits, with the count or the closed or open han they give. The
one left, kokushi's 13-sided wait (it reads the tiles before the winning one), runs its
predicate on the thirteen orphans readings only. What a feature set scores is worked out once
per table and kept: readings alike in those bits share their outcome, so a warm reading costs
its features and a dict lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from companion.rules.patterns import (
    Match,
    Pattern,
    Predicate,
    count_of,
    is_decided,
    needs_of,
    variants_of,
)
from companion.rules.riichi import yaku
from companion.rules.riichi.facts import RiichiFacts

Found = list[tuple[Pattern, int, int]]
"""What `yaku.scored` gives: the patterns that score, their matches, their han or yakuman."""
T = TypeVar("T")
Undecided = tuple[tuple[int, Predicate], ...]
"""The position and predicate of each pattern a reading's features leave undecided."""
_Matched = tuple[tuple[int, int, int], ...]
"""The patterns that matched on a reading (position, matches, value), in table order."""

MAX_OUTCOMES = 20_000
"""Entries kept at most in each of a table's memos before it forgets them (a few thousand
feature sets come up in a long run)."""


class RiichiTable(Generic[T]):
    """A table of yaku as the scorer runs it; `build` makes the outcome of what scores on a
    reading (None where nothing does), as the scorer keeps it."""

    def __init__(
        self,
        patterns: Sequence[Pattern],
        build: Callable[[Found, bool], T | None],
        closed: int,
        counting: int,
    ) -> None:
        self.patterns = tuple(patterns)
        self._build = build
        self._closed = closed
        """The feature bit that says the hand is closed (what `build` is told)."""
        self._entries: list[
            tuple[int, int, Pattern, Predicate | None, Callable[[int], object] | None]
        ] = []
        """Each pattern's position, needs, itself, its predicate when undecided, and what its
        count or variants are read from when decided (None: one match)."""
        self.reads_closed = self.reads_open = counting
        """The feature bits that decide what scores on a closed hand, and on an open one: the
        bits some pattern needs (on an open hand, one that is not closed only) and `counting`,
        those a decided pattern's count reads. Features are looked up masked by them, so that
        a bit that decides nothing (a self-draw or a twin of chows on an open hand) does not
        split them."""
        for index, pattern in enumerate(self.patterns):
            (need,) = needs_of(pattern.predicate)
            predicate = pattern.predicate
            how: Callable[[int], object] | None = variants_of(predicate) or count_of(predicate)
            undecided = None if is_decided(predicate) else predicate
            self._entries.append((index, need, pattern, undecided, how))
            self.reads_closed |= need
            if not need & closed:
                self.reads_open |= need
        self._scored: dict[tuple[int, object], tuple[int, int]] = {}
        """By a decided pattern's position and its count or variants: its matches and value."""
        self.known: dict[int, tuple[Undecided, _Matched, T | None]] = {}
        """By features, those `decide` has seen: the undecided predicates to run, the decided
        patterns that match, and the outcome when none of those predicates matches (the
        scorer looks a reading up here, and calls `decide` on a miss)."""

    def clear(self) -> None:
        self._scored.clear()
        self.known.clear()

    def evaluate(
        self, features: int, facts: RiichiFacts, undecided: Undecided, outcome: T | None
    ) -> T | None:
        """The outcome of a reading whose features leave predicates `undecided` (`known`),
        `outcome` when none of them matches."""
        matched = [
            (index, len(matches), yaku.value_of(self.patterns[index], matches))
            for index, predicate in undecided
            if (matches := predicate(facts))  # type: ignore[arg-type]
        ]
        if not matched:
            return outcome
        decided = (self.known.get(features) or self.decide(features))[1]
        return self._outcome(features, tuple(sorted([*decided, *matched])))

    def decide(self, features: int) -> tuple[Undecided, _Matched, T | None]:
        """What `known` keeps for these features, worked out (each pattern's needs tested)."""
        undecided: list[tuple[int, Predicate]] = []
        decided: list[tuple[int, int, int]] = []
        for index, _, pattern, predicate, read in [
            entry for entry in self._entries if features & entry[1] == entry[1]
        ]:
            if predicate is not None:
                undecided.append((index, predicate))
                continue
            # What a decided pattern's matches make depends on its count or variants alone:
            # worked out once for each (a new feature set costs its needs' tests).
            how = read(features) if read is not None else None
            scored = self._scored.get((index, how))
            if scored is None:
                matches = decided_matches(pattern, features)
                scored = (len(matches), yaku.value_of(pattern, matches))
                self._scored[index, how] = scored
            if scored[0]:
                decided.append((index, *scored))
        matched = tuple(decided)
        kept = (tuple(undecided), matched, self._outcome(features, matched))
        if len(self.known) >= MAX_OUTCOMES:
            self.known.clear()
        self.known[features] = kept
        return kept

    def _outcome(self, features: int, matched: _Matched) -> T | None:
        found = [(self.patterns[index], count, value) for index, count, value in matched]
        return self._build(yaku.resolved(found), bool(features & self._closed))


def decided_matches(pattern: Pattern, features: int) -> tuple[Match, ...]:
    """The matches a decided pattern has on a reading with these features (which meet its
    needs): their count and variants as it declares them."""
    variants = variants_of(pattern.predicate)
    if variants is not None:
        return tuple(Match((), variant) for variant in variants(features))
    count = count_of(pattern.predicate)
    return (Match(()),) * (1 if count is None else count(features))
