"""A riichi request read and checked: its tiles with their red fives, its win, its events,
its dora indicators, its counters and its options (`read_riichi_request`), refusing what
cannot have happened before any reading of the tiles is looked at. The engine
(`companion.rules.riichi.engine`) scores what it reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidRequestError, NotAWinError
from companion.hand import Hand, Meld, MeldKind
from companion.rules.own_request import read_win
from companion.rules.riichi import yaku
from companion.rules.riichi.facts import RiichiCircumstance, RiichiContext
from companion.rules.riichi.options import RiichiOptions, read_options
from companion.rules.riichi.tiles import read_red_fives
from companion.tiles import KINDS, Tile, Wind, parse_tile, parse_tiles

E = RiichiCircumstance


def _indicators(text: str | Sequence[str], field: str) -> tuple[Tile, ...]:
    words = [text] if isinstance(text, str) else list(text)
    found: list[Tile] = []
    for word in words:
        for tile in parse_tiles(read_red_fives(word, field).text):
            if tile >= KINDS:
                raise InvalidRequestError(f"{field}: {tile.english} is no indicator in riichi")
            found.append(tile)
    return tuple(found)


def _events(names: Sequence[str]) -> frozenset[RiichiCircumstance]:
    found: set[RiichiCircumstance] = set()
    for name in names:
        try:
            found.add(RiichiCircumstance(name))
        except ValueError:
            known = ", ".join(event.value for event in RiichiCircumstance)
            raise InvalidRequestError(
                f'events: unknown event "{name}": riichi has {known}'
            ) from None
    return frozenset(found)


def check_events(
    context: RiichiContext,
    hand: Hand,
    ura_dora: Sequence[Tile],
    options: RiichiOptions,
    kita: int = 0,
) -> None:
    """Refuse what cannot have happened, naming the fields at fault. `kita`: the North tiles
    set aside (sanma), each followed by a replacement draw as a kong is."""
    has = context.has
    riichi = has(E.RIICHI) or has(E.DOUBLE_RIICHI)
    claimed = [meld for meld in hand.melds if meld.kind is not MeldKind.CONCEALED_KONG]
    problems: list[str] = []
    if riichi and claimed:
        problems.append(f"events: riichi with a claimed group ({claimed[0]}) in melds")
    if has(E.RIICHI) and has(E.DOUBLE_RIICHI):
        problems.append("events: double_riichi is in place of riichi, not beside it")
    if has(E.IPPATSU) and not riichi:
        problems.append("events: ippatsu without riichi")
    if ura_dora and not riichi:
        problems.append("ura_dora: ura dora count only with riichi in events")
    if has(E.REPLACEMENT) and context.by_discard:
        problems.append('events: replacement (rinshan) on a discard; win must be "self_draw"')
    if has(E.REPLACEMENT) and not kita and not any(meld.kind.is_kong for meld in hand.melds):
        problems.append(
            "events: replacement (rinshan) without a kong in melds"
            + (" or a North set aside (kita)" if len(options.seats) == 3 else "")
        )
    if has(E.LAST_TILE) and has(E.REPLACEMENT):
        problems.append("events: last_tile (haitei) with replacement (rinshan)")
    if has(E.LAST_TILE) and context.by_discard:
        problems.append("events: last_tile (haitei) is a self-draw; on a discard use last_discard")
    if has(E.LAST_DISCARD) and not context.by_discard:
        problems.append('events: last_discard (houtei) is a discard win; win must be "discard"')
    if has(E.ROBBING_KONG) and not context.by_discard:
        problems.append('events: robbing_kong (chankan) on a self-draw; win must be "discard"')
    if has(E.HEAVENLY) and (not context.dealer or context.by_discard or hand.melds):
        problems.append("events: heavenly (tenhou) is the dealer's self-draw, no melds")
    if has(E.EARTHLY) and (context.dealer or context.by_discard or hand.melds):
        problems.append("events: earthly (chiihou) is a non-dealer's self-draw, no melds")
    if has(E.RENHOU):
        if yaku.RENHOU.pattern_in(options) is None:
            problems.append('events: renhou is not played (option renhou is "off")')
        elif context.dealer or not context.by_discard or hand.melds:
            problems.append("events: renhou is a non-dealer's discard win, no melds")
    if problems:
        raise NotAWinError("; ".join(problems))


@dataclass(frozen=True)
class RiichiRequest:
    """A riichi request's fields read and checked (`read_riichi_request`), ready to be scored
    (`score_riichi_request`): what `score_riichi` does is the two in turn."""

    hand: Hand
    context: RiichiContext
    dora: tuple[Tile, ...]
    """The dora indicators (the tiles shown, not the dora they make)."""
    ura_dora: tuple[Tile, ...]
    red_fives: int
    """The red fives among the hand's tiles and its melds'."""
    honba: int
    riichi_sticks: int
    liable: str | None
    """The liable seat as given: read after scoring, as `score_riichi` reads it."""
    options: RiichiOptions
    kita: int = 0
    """The North tiles set aside, each a dora (`sanma`; always 0 at a table of four)."""


def read_riichi_request(
    hand: str,
    *,
    win_tile: str | None = None,
    win: str = "self_draw",
    seat: str = "E",
    round: str = "E",
    discarder: str | None = None,
    melds: Sequence[str] = (),
    dora: str | Sequence[str] = (),
    ura_dora: str | Sequence[str] = (),
    events: Sequence[str] = (),
    honba: int = 0,
    riichi_sticks: int = 0,
    liable: str | None = None,
    options: Mapping[str, Any] | RiichiOptions | None = None,
    kita: int = 0,
) -> RiichiRequest:
    """`score_riichi`'s fields read from their text and checked, refusing what `score_riichi`
    refuses before it looks at the tiles' readings. `options` may be read already (a variant's
    own, such as sanma's); `kita` is sanma's, which checks it before."""
    rules = options if isinstance(options, RiichiOptions) else read_options(options or {})
    reds = read_red_fives(hand)
    meld_reds = [read_red_fives(text, "melds") for text in melds]
    red_count = reds.count + sum(found.count for found in meld_reds)
    by_suit: dict[str, int] = {}
    for red in (reds, *meld_reds):
        for suit, count in red.by_suit:
            by_suit[suit] = by_suit.get(suit, 0) + count
    if red_count and not rules.red_fives:
        raise InvalidRequestError("hand: red fives (0m 0p 0s) are not played (option red_fives)")
    if any(count > 1 for count in by_suit.values()):
        raise InvalidRequestError("hand, melds: a table has one red five of each suit")
    concealed = parse_tiles(reds.text)
    if any(tile >= KINDS for tile in concealed):
        raise InvalidRequestError("hand: riichi has no flowers or animals")
    declared = tuple(Meld.parse(found.text) for found in meld_reds)
    winning = parse_tile(read_red_fives(win_tile).text) if win_tile else None
    built = Hand.build(concealed, declared, winning_tile=winning, sets=4)
    winner, by_discard, payer = read_win(win, seat, discarder)
    for name, number in (("honba", honba), ("riichi_sticks", riichi_sticks)):
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 1000:
            raise InvalidRequestError(f"{name} must be a whole number from 0 to 1000")
    context = RiichiContext(winner, Wind.parse(round), by_discard, payer, _events(events))
    indicators = _indicators(dora, "dora")
    unders = _indicators(ura_dora, "ura_dora")
    check_events(context, built, unders, rules, kita)
    return RiichiRequest(
        built, context, indicators, unders, red_count, honba, riichi_sticks, liable, rules, kita
    )
