"""Scoring one MCR hand: its readings, each one's fan under the principles, the reading worth
most, the flowers, the minimum and the settlement.

The profile (`companion.rules.mcr.profile`) reads a request and calls `score_mcr` with its
fields, which `request.py` reads and checks; `counting.py` gives each reading its fan, and
`result.py` holds the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import NotAWinError
from companion.hand import Hand, Meld
from companion.rules.mcr.counting import Scored, scored
from companion.rules.mcr.facts import McrContext, McrFacts
from companion.rules.mcr.fans import FLOWER
from companion.rules.mcr.features import hand_bits, reading_bits
from companion.rules.mcr.request import build_request
from companion.rules.mcr.result import McrResult, McrScore
from companion.rules.mcr.shapes import McrShape, mcr_readings
from companion.shapes.blocks import remember
from companion.tiles import KINDS, Tile, Wind, parse_tiles

MINIMUM = 8
"""The fan a win needs, flowers not counted."""
BASE = 8
"""What each of the other three pays besides the fan (the discarder pays the fan too)."""


def scored_readings(
    hand: Hand, context: McrContext, *, by_predicates: bool = False
) -> list[Scored]:
    """Every reading with its fan, in reading order (`mcr_readings`); `by_predicates` runs
    every fan's predicate rather than reading the feature bits first (for the tests)."""
    # The hand before the winning tile as `Hand.without_winning_tile` has it (the last copy
    # written is the one that arrived), without making a `Hand`, and its counts from the
    # whole hand's rather than counted again.
    winning = context.winning
    concealed = list(hand.concealed)
    del concealed[len(concealed) - 1 - concealed[::-1].index(winning)]
    before = tuple(concealed)
    counts = hand.counts()
    melds = len(hand.melds)
    shared = hand_bits(counts, context, melds)
    counts[winning] -= 1
    held = tuple(counts)
    found = []
    for reading in mcr_readings(hand, context.by_discard):
        # The facts' dict filled at once, as `McrFacts(...)` fills it, rather than through
        # the frozen dataclass's five setattr calls (with the reading's likewise in
        # `mcr_readings`: 16k of 563k instructions a hand).
        facts = object.__new__(McrFacts)
        facts.__dict__.update(
            reading=reading,
            context=context,
            concealed_before=before,
            melds=melds,
            held_before=held,
        )
        found.append(
            scored(reading, facts, None if by_predicates else shared | reading_bits(reading))
        )
    return found


def _worth(entry: Scored) -> tuple[int, bool, bool]:
    """The fan, then, between readings worth the same: one with a preferred fan, then four
    sets and a pair over seven pairs; the first of equals is reported."""
    return (entry.fan, entry.preferred, entry.reading.shape is not McrShape.SEVEN_PAIRS)


_SETTLED: dict[tuple[int, int, int, bool], dict[Wind, int]] = {}


def settle(fan: int, winner: Wind, payer: Wind | None, meets: bool) -> dict[Wind, int]:
    """8 + fan from each other player on a self-draw; on a discard, 8 + fan from the
    discarder and 8 from the other two. Nothing under the minimum."""
    # Worked out once for each fan, seats and minimum (about a thousand in 3,000 hands), each
    # result given its own copy: the loop over the seats, an enum's iteration, cost 17k of
    # 736k instructions a hand (`bench/instructions.py`).
    key = (fan, id(winner), id(payer), meets)  # `Wind` hashes its name in Python
    known = _SETTLED.get(key)
    if known is None:
        known = remember(_SETTLED, key, _settle(fan, winner, payer, meets))
    return dict(known)


def _settle(fan: int, winner: Wind, payer: Wind | None, meets: bool) -> dict[Wind, int]:
    payments = dict.fromkeys(Wind, 0)
    if not meets:
        return payments
    for seat in Wind:
        if seat is winner:
            continue
        paid = BASE + fan if payer is None or seat is payer else BASE
        payments[seat] -= paid
        payments[winner] += paid
    return payments


def score_mcr(
    hand: str,
    *,
    win_tile: str | None = None,
    win: str = "self_draw",
    seat: str = "E",
    round: str = "E",
    discarder: str | None = None,
    melds: Sequence[str] = (),
    bonus: str = "",
    events: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
) -> McrResult:
    """Score an MCR hand given as the contract's request fields."""
    built, context, payer = build_request(
        hand, win_tile, win, seat, round, discarder, melds, bonus, events, options
    )
    return score_built(built, context, payer)


def score_built(built: Hand, context: McrContext, payer: Wind | None) -> McrResult:
    """Score a hand `build_request` has read (its fields already checked): the readings, the
    one worth most, the flowers, the minimum and the settlement."""
    scored = scored_readings(built, context)
    if not scored:
        raise NotAWinError(
            "not a win: the tiles make no four sets and a pair, seven pairs, thirteen orphans, "
            "honors and knitted tiles, or knitted straight with a set and a pair",
            key="refusal.mcr_not_a_win",
        )
    best = scored[0] if len(scored) == 1 else max(scored, key=_worth)
    reading, patterns, fan = best.reading, best.deferred(), best.fan
    flowers = len(built.bonus)
    if flowers:
        tiles = tuple(tile.mpsz for tile in sorted(built.bonus))
        patterns = [
            *patterns,
            McrScore(FLOWER.id, FLOWER.english, FLOWER.hans, FLOWER.hant, 1, flowers, tiles),
        ]
    meets = fan >= MINIMUM
    group, wait = best.facts.winning_place
    # The result's dict filled at once, as `McrResult(...)` fills it (defaults included),
    # rather than through the frozen dataclass's eleven setattr calls.
    result = object.__new__(McrResult)
    result.__dict__.update(
        patterns=tuple(patterns),
        groups=reading.groups,
        fan=fan + flowers,
        flowers=flowers,
        meets_minimum=meets,
        payments=settle(fan + flowers, context.seat, payer, meets),
        winning_group=group,
        wait=wait,
        unit="fan",
        valid=True,
    )
    return result


@dataclass(frozen=True)
class McrWait:
    """A tile a hand one short waits on, and what the win on it scores (None, with the
    reason, where the win is refused)."""

    tile: str
    result: McrResult | None
    refusal: str | None = None
    refusal_key: str | None = None
    """The refusal's stable key, for saying it in another language (None: English only)."""
    refusal_params: Mapping[str, Any] | None = None


def wait_kinds(waiting: Hand) -> tuple[Tile, ...]:
    """The kinds that complete a hand one tile short into any MCR shape, in tile order; a kind
    whose four copies the hand already holds is none."""
    held = waiting.counts()
    return tuple(
        Tile(kind)
        for kind in range(KINDS)
        if held[kind] < 4 and mcr_readings(waiting.with_winning_tile(Tile(kind)), by_discard=False)
    )


def mcr_waits(hand: str, *, melds: Sequence[str] = (), **fields: Any) -> tuple[McrWait, ...]:
    """The waits of a hand one tile short (`hand` of 13 tiles less three a meld), each scored
    as `score_mcr` scores it with that winning tile and the other `fields`, in tile order.
    A kind whose four copies are all in the hand is no wait."""
    tiles = parse_tiles(hand)
    declared = tuple(Meld.parse(text) for text in melds)
    waiting = Hand.build(tiles, declared, sets=4, complete=False)
    found: list[McrWait] = []
    for tile in wait_kinds(waiting):
        try:
            result = score_mcr(hand + tile.mpsz, win_tile=tile.mpsz, melds=melds, **fields)
        except NotAWinError as refusal:
            found.append(McrWait(tile.mpsz, None, refusal.message, refusal.key, refusal.params))
        else:
            found.append(McrWait(tile.mpsz, result))
    return tuple(found)
