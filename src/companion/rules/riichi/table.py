"""Riichi's yaku table compiled for the scorer: a reading's yaku looked up by its features.

Each yaku's predicate declares (`companion.rules.patterns.needs`) the feature bits
(`features.py`) a reading needs for it to match, and for all but three that those bits decide
it: then it is scored from the bits, with the count or the closed or open han they give. The
three left (kokushi's 13-sided wait and the two nine gates, which read the tiles' counts) run
their predicate on the readings whose bits allow them, rare hands. What a feature set scores
is worked out once per table and kept: readings alike in those bits share their outcome, so a
warm reading costs its features and a dict lookup.
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
_Kept = tuple[
    tuple[tuple[int, Predicate], ...], tuple[tuple[int, Pattern, int, int], ...], T | None
]
"""What a table keeps by features: the undecided predicates to run (position, predicate), the
decided patterns that match (position, pattern, matches, value), and the outcome when none of
those predicates matches."""

MAX_OUTCOMES = 20_000
"""Feature sets kept at most per table before it forgets them (a few thousand come up)."""


class RiichiTable(Generic[T]):
    """A table of yaku as the scorer runs it; `build` makes the outcome of what scores on a
    reading (None where nothing does), as the scorer keeps it."""

    def __init__(
        self, patterns: Sequence[Pattern], build: Callable[[Found, bool], T | None], closed: int
    ) -> None:
        self.patterns = tuple(patterns)
        self._build = build
        self._closed = closed
        """The feature bit that says the hand is closed (what `build` is told)."""
        self._entries: list[tuple[int, int, Pattern, Predicate | None]] = []
        for index, pattern in enumerate(self.patterns):
            (need,) = needs_of(pattern.predicate)
            decided = is_decided(pattern.predicate)
            self._entries.append((index, need, pattern, None if decided else pattern.predicate))
        self._outcomes: dict[int, _Kept[T]]
        self._outcomes = {}
        """By features: the undecided predicates to run, what the bits decide, and the outcome
        when none of those predicates matches."""
        self._evaluated: dict[tuple[int, tuple[tuple[int, int, int], ...]], T | None] = {}
        """By features and what the undecided predicates that matched gave."""

    def clear(self) -> None:
        self._outcomes.clear()
        self._evaluated.clear()

    def entry(self, features: int) -> tuple[tuple[tuple[int, Predicate], ...], T | None]:
        """For a reading with these features: the undecided predicates that must run on its
        facts (`evaluate`, none for most readings), and its outcome when none of them
        matches."""
        found = self._outcomes.get(features)
        if found is None:
            found = self._decide(features)
        return found[0], found[2]

    def outcome(self, features: int, facts: RiichiFacts) -> T | None:
        """The outcome of a reading with these features and facts."""
        undecided, outcome = self.entry(features)
        return self.evaluate(features, facts, undecided, outcome) if undecided else outcome

    def evaluate(
        self,
        features: int,
        facts: RiichiFacts,
        undecided: tuple[tuple[int, Predicate], ...],
        outcome: T | None,
    ) -> T | None:
        """The outcome of a reading whose features leave predicates `undecided` (`entry`),
        `outcome` when none of them matches."""
        matched = tuple(
            [
                (index, len(matches), yaku.value_of(self.patterns[index], matches))
                for index, predicate in undecided
                if (matches := predicate(facts))  # type: ignore[arg-type]
            ]
        )
        if not matched:
            return outcome
        key = (features, matched)
        if key in self._evaluated:
            return self._evaluated[key]
        decided = (self._outcomes.get(features) or self._decide(features))[1]
        # Every match in table order, the undecided ones in their places.
        entries = [
            *decided,
            *((index, self.patterns[index], count, value) for index, count, value in matched),
        ]
        entries.sort(key=lambda entry: entry[0])
        every = [(pattern, count, value) for _, pattern, count, value in entries]
        result = self._build(yaku.resolved(every), bool(features & self._closed))
        if len(self._evaluated) >= MAX_OUTCOMES:
            self._evaluated.clear()
        self._evaluated[key] = result
        return result

    def _decide(self, features: int) -> _Kept[T]:
        open_: list[tuple[int, Predicate]] = []
        decided: list[tuple[int, Pattern, int, int]] = []
        for index, need, pattern, predicate in self._entries:
            if features & need != need:
                continue
            if predicate is not None:
                open_.append((index, predicate))
                continue
            matches = decided_matches(pattern, features)
            if matches:
                decided.append((index, pattern, len(matches), yaku.value_of(pattern, matches)))
        found = [(pattern, count, value) for _, pattern, count, value in decided]
        outcome = self._build(yaku.resolved(found), bool(features & self._closed))
        kept = (tuple(open_), tuple(decided), outcome)
        if len(self._outcomes) >= MAX_OUTCOMES:
            self._outcomes.clear()
        self._outcomes[features] = kept
        return kept


def decided_matches(pattern: Pattern, features: int) -> tuple[Match, ...]:
    """The matches a decided pattern has on a reading with these features (which meet its
    needs): their count and variants as it declares them."""
    variants = variants_of(pattern.predicate)
    if variants is not None:
        return tuple(Match((), variant) for variant in variants(features))
    count = count_of(pattern.predicate)
    return (Match(()),) * (1 if count is None else count(features))
