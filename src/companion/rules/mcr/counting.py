"""A reading's fan (`scored`): those its feature bits allow (`features.py`), their predicates,
and the principles that count them (`companion.rules.principles`), worked over masks of the fan.
The engine (`companion.rules.mcr.engine`) scores every reading of a hand this way and keeps the
one worth most.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from companion.rules.mcr.facts import McrFacts
from companion.rules.mcr.fans import (
    BY_ID,
    ELEMENTS,
    FAMILY_FANS,
    FANS,
    WAIT_FANS,
    Fan,
    family_places,
)
from companion.rules.mcr.result import McrScore
from companion.rules.mcr.shapes import McrReading
from companion.rules.principles import Sets, apply_principles, choose_combinations
from companion.shapes.blocks import remember


class Scored(NamedTuple):
    """One reading with its fan: the matches that count, by id, and their scores (without
    their tiles: only the reading reported is given them, `deferred`), their fan and whether
    one of them is preferred."""

    reading: McrReading
    facts: McrFacts
    counted: dict[str, list[Sets]]
    patterns: tuple[McrScore, ...]
    fan: int
    preferred: bool

    def deferred(self) -> list[McrScore]:
        """The scores, each to find the groups or tiles behind its counted matches when first
        asked for (`McrScore.items`)."""
        # A copy of the shared score holding the reading's facts and its matches, made by
        # copying its dict whole; its tiles are found only when read (`to_json` reads them):
        # `earned_by` on every score of every hand was 13 % of a warm hand's time (py-spy).
        facts, counted = self.facts, self.counted
        found = []
        for score in self.patterns:
            scored = object.__new__(McrScore)
            fields = score.__dict__.copy()
            fields["_items"] = None
            fields["_earned"] = (facts, counted[score.id])
            object.__setattr__(scored, "__dict__", fields)
            found.append(scored)
        return found


WHOLE_HAND: list[Sets] = [frozenset()]

# The fan as bits of an integer, bit r for the fan of rank r in `FANS`: what a reading may
# earn, what it matched and what the principles leave out are masks over them.
_IDS = tuple(fan.id for fan in FANS)
_BIT = {fan.id: 1 << rank for rank, fan in enumerate(FANS)}


def _fan_mask(names: Iterable[str]) -> int:
    return sum(_BIT[name] for name in set(names))


_EXCLUDES = tuple(_fan_mask(fan.excludes) for fan in FANS)
"""What each fan leaves out (wholly, or the number it names)."""
_DECIDED = _fan_mask(fan.id for fan in FANS if fan.decided)
_FALLBACK = _fan_mask(fan.id for fan in FANS if fan.fallback)
_COMBINATION = _fan_mask(fan.id for fan in FANS if fan.combination)
_ABSORBERS = _fan_mask(fan.id for fan in FANS if fan.absorbs)
_EXCLUDERS = _fan_mask(fan.id for fan in FANS if fan.excludes)
_FAMILY_MASKS = tuple(
    (family, _fan_mask(name for name, _ in FAMILY_FANS[family])) for family in ("chows", "pungs")
)
_UNCOMMON = _fan_mask(
    fan.id for fan in FANS if any(many is not None for many in fan.excludes.values())
) | _fan_mask(
    name for fan in FANS for name in fan.absorbs if BY_ID[name].excludes or BY_ID[name].absorbs
)
"""Fan whose presence sends a reading to `apply_principles` itself: one that leaves out a
number of another's matches (nine gates), or an absorbed fan with rules of its own (none)."""

_CHUNKS = tuple(range(0, max(fan.needs for fan in FANS).bit_length(), 8))
_ALLOWED: tuple[dict[int, int], ...] = tuple({} for _ in _CHUNKS)
_ALLOWED_BY_BITS: dict[int, int] = {}


def _allowed_by(chunk: int, value: int) -> int:
    """The fan whose needs, in the eight feature bits from `chunk`, are within `value`."""
    return _fan_mask(fan.id for fan in FANS if (fan.needs >> chunk) & 255 & ~value == 0)


def _allowed(bits: int) -> int:
    """The fan a reading with these feature bits may earn, as a mask over the fan."""
    # Eight bits at a time, each byte's fan kept by its value (5 to 55 values a byte in
    # 3,000 hands): the fan allowed were kept by the whole of the bits before, 1,598 sets of
    # bits in 3,000 hands, so that half the readings went over all 81 fan. With the
    # principles over masks (`_counted`): 47k of 675k instructions a hand. The answer is
    # also kept by the whole of the bits, looked up first: a warm run meets most sets of bits
    # again, and a hit is one look-up rather than eight (9k of 510k instructions a hand).
    known = _ALLOWED_BY_BITS.get(bits)
    if known is not None:
        return known
    allowed = -1
    for chunk, memo in zip(_CHUNKS, _ALLOWED, strict=True):
        value = (bits >> chunk) & 255
        found = memo.get(value)
        if found is None:
            found = memo[value] = _allowed_by(chunk, value)
        allowed &= found
    return remember(_ALLOWED_BY_BITS, bits, allowed)


_RUNS: dict[int, tuple[Fan, ...]] = {}


def _run(mask: int) -> tuple[Fan, ...]:
    """The fan of `mask` (those whose predicates run: neither decided nor combined by
    family), in table order, kept by the mask."""
    found = _RUNS.get(mask)
    if found is None:
        found = _RUNS[mask] = tuple(fan for fan in FANS if mask & _BIT[fan.id])
    return found


_WAITS = _fan_mask(WAIT_FANS.values())
_PREDICATES = ~(_DECIDED | _COMBINATION | _WAITS)


class Counted(NamedTuple):
    """What the principles count of one reading's matches: the matches by id, the scores
    (without their tiles), their fan and whether one is preferred (`_worth`)."""

    counted: dict[str, list[Sets]]
    patterns: tuple[McrScore, ...]
    fan: int
    preferred: bool


_MOST = 8
"""More matches of one fan than a reading holds (four sets, seven pairs)."""
_SCORES: dict[str, tuple[tuple[McrScore, int, bool], ...]] = {
    fan.id: tuple(
        (
            McrScore(fan.id, fan.english, fan.hans, fan.hant, fan.value, count),
            fan.value * count,
            fan.preferred,
        )
        for count in range(_MOST + 1)
    )
    for fan in FANS
}
"""Each fan's score without its tiles, its fan and whether it is preferred, by the number of
matches counted, made once: a score costs about a microsecond to make and a reading counts
four or five (an entry for no match is never read)."""


def _disjoint(matches: list[Sets]) -> bool:
    return len(matches) < 2 or len(frozenset().union(*matches)) == sum(map(len, matches))


def _counted(
    found: dict[str, list[Sets]], decided: int = 0, combined: list[Sets] | None = None
) -> Counted:
    """What the principles count (`apply_principles`) of a reading's matches: `found`, by id,
    and the fan `decided` by its bits (a mask), each one match of the whole hand; `combined`,
    where the caller has them, every match of a combination fan in `found`."""
    mask = decided | sum(map(_BIT.__getitem__, found))
    counted: dict[str, list[Sets]] | None = None
    if not mask & _UNCOMMON:
        # The principles over masks: non-repeat as each counted fan's exclusions taken off
        # the fan still counted, in table order; the combinations chosen by the principles'
        # own search only when two candidates share a set; absorbed matches dropped after
        # (an absorbed fan leaves nothing out itself, `_UNCOMMON`). `apply_principles` went
        # over every matched fan's exclusions by id; an outline of them kept by the ids
        # missed on two readings in three (2,326 sets of ids in 3,000 hands), and a third
        # of the readings share a set between candidates or hold an absorbing wind pung.
        # tests/test_mcr_features.py holds this to `apply_principles` on every reading.
        chosen = None
        if mask & _COMBINATION:
            if combined is None:
                combined = [
                    sets
                    for name, matches in found.items()
                    if _BIT[name] & _COMBINATION
                    for sets in matches
                ]
            if not _disjoint(combined):
                chosen = choose_combinations(ELEMENTS, found)
                mask = (mask & ~_COMBINATION) | sum(map(_BIT.__getitem__, chosen))
        alive = mask & ~_FALLBACK
        # Only a fan that leaves something out changes `alive` (9k of 578k instructions a hand).
        rest = alive & _EXCLUDERS
        while rest:
            low = rest & -rest
            rest ^= low
            if alive & low:
                alive &= ~_EXCLUDES[low.bit_length() - 1]
        if not alive:
            alive = mask & _FALLBACK
        counted = {}
        rest = alive
        while rest:
            low = rest & -rest
            rest ^= low
            name = _IDS[low.bit_length() - 1]
            if low & _COMBINATION:
                if chosen is not None:
                    matches = chosen[name]
                else:
                    matches = found[name]
                    if len(matches) > 1:
                        # As the principles order a combination fan's matches: by their sets.
                        matches = sorted(matches, key=sorted)
            else:
                matches = found.get(name, WHOLE_HAND)
            counted[name] = matches
        if alive & _ABSORBERS:
            rest = alive & _ABSORBERS
            while rest:
                low = rest & -rest
                rest ^= low
                present = counted[_IDS[low.bit_length() - 1]]
                for name in BY_ID[_IDS[low.bit_length() - 1]].absorbs:
                    if name in counted:
                        kept = [
                            other
                            for other in counted[name]
                            if not any(other <= sets for sets in present)
                        ]
                        if kept:
                            counted[name] = kept
                        else:
                            del counted[name]
    else:
        whole = dict.fromkeys(
            (_IDS[rank] for rank in range(len(FANS)) if decided >> rank & 1), WHOLE_HAND
        )
        counted = apply_principles(ELEMENTS, whole | found)
    patterns = []
    total = 0
    preferred = False
    # Each score looked up by its fan and the number of its matches, all made beforehand
    # (`_SCORES`): a key tuple and a miss test for each score cost more.
    for name, matches in counted.items():
        score, fan, first = _SCORES[name][len(matches)]
        patterns.append(score)
        total += fan
        preferred = preferred or first
    return Counted(counted, tuple(patterns), total, preferred)


def scored(reading: McrReading, facts: McrFacts, bits: int | None) -> Scored:
    """The reading's fan: by its feature bits (`_allowed`), or, with no bits, by running every
    fan's predicate (what the bits are held to: tests/test_mcr_features.py)."""
    # Only the fan that match are handed on: most of the 81 do not, and the principles then
    # pass over fewer ids.
    found: dict[str, list[Sets]]
    if bits is None:
        found = {fan.id: matches for fan in FANS if (matches := fan.predicate(facts))}
        return Scored(reading, facts, *_counted(found))
    allowed = _allowed(bits)
    found = {}
    for fan in _run(allowed & _PREDICATES):
        matches = fan.predicate(facts)
        if matches:
            found[fan.id] = matches
    if allowed & _WAITS:
        # The three wait fans need the same bits and read one position: one look at it
        # rather than three predicates (two calls a reading fewer; with the hand before the
        # winning tile read without a `Hand`, 22k of 628k instructions a hand).
        position = facts.wait_position
        if position is not None and allowed & _BIT[WAIT_FANS[position]]:
            found[WAIT_FANS[position]] = WHOLE_HAND
    # The combination fan come from the families alone, and their matches are gathered as
    # they are made, for the principles' test of a shared set.
    combined: list[Sets] = []
    for family, family_mask in _FAMILY_MASKS:
        if allowed & family_mask:
            members, tiles = facts.family(family)
            for name, places in family_places(family, tiles):
                matches = [frozenset([members[at] for at in match]) for match in places]
                found[name] = matches
                combined += matches
    return Scored(reading, facts, *_counted(found, allowed & _DECIDED, combined))
