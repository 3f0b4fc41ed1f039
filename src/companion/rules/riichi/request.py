"""A riichi request read and checked: its tiles with their red fives, its win, its events,
its dora indicators, its counters and its options (`read_riichi_request`), refusing what
cannot have happened before any reading of the tiles is looked at. The engine
(`companion.rules.riichi.engine`) scores what it reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.context import Circumstance, WinContext, WinType
from companion.errors import InvalidRequestError, NotAWinError, Problem
from companion.hand import Hand, Meld, MeldKind
from companion.rules import legality
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


SHARED = {
    E.ROBBING_KONG: Circumstance.ROBBING_KONG,
    E.LAST_TILE: Circumstance.LAST_TILE,
    E.LAST_DISCARD: Circumstance.LAST_DISCARD,
    E.HEAVENLY: Circumstance.HEAVENLY,
    E.EARTHLY: Circumstance.EARTHLY,
}
"""Riichi's events that the shared legality checks ask about, as they name them (not
`replacement`: their check lets a bonus tile's replacement count, riichi has none, so riichi
checks rinshan itself, as hk does)."""
TABLE = legality.Table(dealer=Wind.EAST, earthly_self_draw=True)
"""East deals; chiihou is a self-draw (a non-dealer's win on a discard before their first draw
is renhou: riichi refuses chiihou on a discard itself)."""
FIRST_TURN = {E.HEAVENLY: "heavenly (tenhou)", E.EARTHLY: "earthly (chiihou)"}
NOT_ON_FIRST_DRAW = (E.RIICHI, E.DOUBLE_RIICHI, E.IPPATSU)
"""Declared after a discard: none can stand beside a win on the first draw."""


def _shared_refusal(context: RiichiContext, hand: Hand) -> Problem | None:
    """The first refusal of the checks every profile shares (`companion.rules.legality`), with
    its key: a contradiction they refuse is refused in the same words here.

    Riichi checks three things itself, where its rule is not theirs: rinshan (riichi has no
    bonus tile to replace), chiihou on a discard (that is renhou) and the melds of tenhou and
    chiihou (not even a concealed kong, where the shared checks allow one)."""
    shared = frozenset(SHARED[event] for event in context.circumstances if event in SHARED)
    if context.by_discard:
        shared -= {Circumstance.EARTHLY}
    if not shared:
        return None  # every shared check asks about a circumstance (riichi has no discard count)
    win = WinType.DISCARD if context.by_discard else WinType.SELF_DRAW

    def shared_context(circumstances: frozenset[Circumstance]) -> WinContext:
        return WinContext(
            win, context.seat, context.round, context.discarder, TABLE.dealer,
            circumstances=circumstances,
        )  # fmt: skip

    try:
        legality.check_context(shared_context(shared), TABLE)
        # The shared checks of tenhou's and chiihou's tiles are of their melds: riichi's own.
        legality.check_hand(
            hand, shared_context(shared - {Circumstance.HEAVENLY, Circumstance.EARTHLY})
        )
    except NotAWinError as refusal:
        return Problem(refusal.message, refusal.key, refusal.params)
    return None


def _listed(events: Sequence[RiichiCircumstance]) -> str:
    names = [event.value for event in events]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def check_events(
    context: RiichiContext,
    hand: Hand,
    ura_dora: Sequence[Tile],
    options: RiichiOptions,
    kita: int = 0,
) -> None:
    """Refuse what cannot have happened, naming the fields at fault: one refusal alone with its
    key when it has one (the shared checks'), several together in one message without one.
    `kita`: the North tiles set aside (sanma), each followed by a replacement draw as a kong
    is."""
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
    if has(E.LAST_DISCARD) and has(E.ROBBING_KONG):
        problems.append(
            "events: last_discard (houtei) with robbing_kong (chankan): no kong is declared "
            "after the last tile is drawn, so there is none to rob"
        )
    for event, name in FIRST_TURN.items():
        if not has(event):
            continue
        if hand.melds:
            listed = ", ".join(str(meld) for meld in hand.melds)
            why = (
                " (a concealed kong draws a replacement tile, so the win is no longer on the "
                "first draw)"
                if len(claimed) < len(hand.melds)
                else ""
            )
            problems.append(
                f"events: {name} is won on the first draw with nothing declared: melds must be "
                f"empty, not {listed}{why}"
            )
        declared = [found for found in NOT_ON_FIRST_DRAW if has(found)]
        if declared:
            problems.append(
                f"events: {name} is won on the winner's first draw, before they can declare "
                f"riichi, so not with {_listed(declared)}"
            )
    if has(E.EARTHLY) and context.by_discard:
        problems.append(
            "events: earthly (chiihou) is a non-dealer's self-draw on the first draw; win must "
            'be "self_draw" (a win on a discard before one\'s first draw is renhou)'
        )
    if has(E.RENHOU):
        if yaku.RENHOU.pattern_in(options) is None:
            problems.append('events: renhou is not played (option renhou is "off")')
        elif context.dealer or not context.by_discard or hand.melds:
            problems.append("events: renhou is a non-dealer's discard win, no melds")
    found = [Problem(text) for text in problems]
    shared = _shared_refusal(context, hand)
    if shared is not None:
        found.insert(0, shared)
    if len(found) == 1:
        (only,) = found
        raise NotAWinError(only.text, key=only.key, params=only.params)
    if found:
        raise NotAWinError("; ".join(problem.text for problem in found))


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
