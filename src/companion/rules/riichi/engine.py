"""Scoring one riichi hand: its readings, each one's yaku, dora and fu, the reading that pays
most, and its settlement.

Reachable from Python (`score_riichi`) and the tests only: the profile is not registered with
the calculator, the command line or the API until the rest of it is built (docs/rules-riichi.md
says what is).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidRequestError, NotAWinError
from companion.hand import Hand, Meld, MeldKind
from companion.rules.patterns import Pattern
from companion.rules.riichi import yaku as table
from companion.rules.riichi.facts import RiichiContext, RiichiEvent, RiichiFacts
from companion.rules.riichi.fu import FuItem, fu_items, rounded_fu
from companion.rules.riichi.options import RiichiOptions, read_options
from companion.rules.riichi.points import RiichiValue, Settlement, settle, value_of
from companion.rules.riichi.tiles import read_red_fives
from companion.shapes import Reading, Shape, Structure, readings, waits
from companion.tiles import KINDS, Tile, Wind, parse_tile, parse_tiles

E = RiichiEvent
LIABLE_YAKUMAN = frozenset({"daisangen", "daisuushii"})
"""The yakuman a seat pays for when its discard let them be completed (`liable`)."""

STRUCTURE = Structure(sets=4, thirteen_orphans=True, seven_pairs=True)
"""Four sets and a pair, thirteen orphans, seven pairs of seven different kinds."""


@dataclass(frozen=True)
class RiichiScore:
    """One pattern of the result: a yaku or dora with its `han`, or a yakuman with `yakuman`."""

    id: str
    name: str
    han: int = 0
    yakuman: int = 0
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "count": self.count}
        data["yakuman" if self.yakuman else "han"] = self.yakuman or self.han
        return data


@dataclass(frozen=True)
class RiichiResult:
    """A scored riichi hand, in the contract's fields."""

    patterns: tuple[RiichiScore, ...]
    groups: tuple[str, ...]
    han: int
    fu: int
    fu_items: tuple[FuItem, ...]
    yakuman: int
    limit: str | None
    call: str
    payments: dict[Wind, int]
    deposits: int
    unit: str = "han"
    valid: bool = True


def _indicated(indicator: Tile) -> Tile:
    """The dora an indicator makes: the next kind (9→1, North→East, Red→White)."""
    if indicator < Tile.EAST:
        return Tile(indicator // 9 * 9 + (indicator % 9 + 1) % 9)
    if indicator <= Tile.NORTH:
        return Tile(Tile.EAST + (indicator - Tile.EAST + 1) % 4)
    return Tile(Tile.WHITE + (indicator - Tile.WHITE + 1) % 3)


def _indicators(text: str | Sequence[str], field: str) -> tuple[Tile, ...]:
    words = [text] if isinstance(text, str) else list(text)
    found: list[Tile] = []
    for word in words:
        for tile in parse_tiles(read_red_fives(word, field).text):
            if tile >= KINDS:
                raise InvalidRequestError(f"{field}: {tile.english} is no indicator in riichi")
            found.append(tile)
    return tuple(found)


def _events(names: Sequence[str]) -> frozenset[RiichiEvent]:
    found: set[RiichiEvent] = set()
    for name in names:
        try:
            found.add(RiichiEvent(name))
        except ValueError:
            known = ", ".join(event.value for event in RiichiEvent)
            raise InvalidRequestError(
                f'events: unknown event "{name}": riichi has {known}'
            ) from None
    return frozenset(found)


def check_events(
    context: RiichiContext, hand: Hand, ura_dora: Sequence[Tile], options: RiichiOptions
) -> None:
    """Refuse what cannot have happened, naming the fields at fault."""
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
    if has(E.REPLACEMENT) and not any(meld.kind.is_kong for meld in hand.melds):
        problems.append("events: replacement (rinshan) without a kong in melds")
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
        if options.renhou == "off":
            problems.append('events: renhou is not played (option renhou is "off")')
        elif context.dealer or not context.by_discard or hand.melds:
            problems.append("events: renhou is a non-dealer's discard win, no melds")
    if problems:
        raise NotAWinError("; ".join(problems))


def _table(options: RiichiOptions) -> tuple[Pattern, ...]:
    patterns: tuple[Pattern, ...] = (*table.YAKU, *table.YAKUMAN)
    if options.renhou == "mangan":
        patterns = (*patterns, table.RENHOU_MANGAN)
    elif options.renhou == "yakuman":
        patterns = (*patterns, table.RENHOU_YAKUMAN)
    return patterns


@dataclass(frozen=True)
class _Scored:
    value: RiichiValue
    reading: Reading
    patterns: tuple[RiichiScore, ...]
    fu_items: tuple[FuItem, ...]


def _score_reading(
    facts: RiichiFacts,
    patterns: Sequence[Pattern],
    dora: tuple[tuple[str, int], ...],
    options: RiichiOptions,
) -> _Scored | None:
    """The reading's value and patterns; None when it has no yaku."""
    found = table.scored(patterns, facts)
    if not options.open_tanyao and not facts.closed:
        found = [entry for entry in found if entry[0].id != "tanyao"]
    if not found:
        return None
    scores: list[RiichiScore] = []
    yakuman = han = 0
    for pattern, count, value in found:
        if pattern.limit:
            worth = 2 if options.double_yakuman and pattern.id in table.DOUBLE_FORMS else 1
            scores.append(RiichiScore(pattern.id, pattern.name, yakuman=worth))
            yakuman = yakuman + worth if options.multiple_yakuman else max(yakuman, worth)
        else:
            scores.append(RiichiScore(pattern.id, pattern.name, han=value, count=count))
            han += value
    pinfu = any(score.id == "pinfu" for score in scores)
    items = fu_items(facts, pinfu, options.double_wind_pair_fu)
    fu = rounded_fu(items)
    if not yakuman:
        for dora_id, count in dora:
            scores.append(RiichiScore(dora_id, table.DORA_NAMES[dora_id], han=count, count=count))
            han += count
    return _Scored(value_of(han, fu, yakuman, options), facts.reading, tuple(scores), items)


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
    options: dict[str, Any] | None = None,
) -> RiichiRequest:
    """`score_riichi`'s fields read from their text and checked, refusing what `score_riichi`
    refuses before it looks at the tiles' readings."""
    rules = read_options(options or {})
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
    if win not in ("self_draw", "discard"):
        raise InvalidRequestError(f'win: "{win}" is neither "self_draw" nor "discard"')
    winner = Wind.parse(seat)
    by_discard = win == "discard"
    payer = Wind.parse(discarder) if discarder else None
    if by_discard and payer is None:
        raise InvalidRequestError("discarder: a discard win needs the discarder's seat")
    if payer is winner:
        raise NotAWinError("discarder: the winner cannot win on their own discard")
    if not by_discard and payer is not None:
        raise NotAWinError("discarder: a self-drawn win has no discarder")
    for name, number in (("honba", honba), ("riichi_sticks", riichi_sticks)):
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 1000:
            raise InvalidRequestError(f"{name} must be a whole number from 0 to 1000")
    context = RiichiContext(winner, Wind.parse(round), by_discard, payer, _events(events))
    indicators = _indicators(dora, "dora")
    unders = _indicators(ura_dora, "ura_dora")
    check_events(context, built, unders, rules)
    return RiichiRequest(
        built, context, indicators, unders, red_count, honba, riichi_sticks, liable, rules
    )


def score_riichi_request(request: RiichiRequest) -> RiichiResult:
    """Score a request read by `read_riichi_request`: the reading that pays most, settled.
    Refuses (`NotAWinError`) tiles that are no win, a win without a yaku, and a `liable` seat
    that cannot pay for the hand."""
    built, context, rules = request.hand, request.context, request.options
    winner, payer, by_discard = context.seat, context.discarder, context.by_discard
    indicators, unders, red_count = request.dora, request.ura_dora, request.red_fives
    counts = built.counts()
    dora_counts = (
        ("dora", sum(counts[_indicated(tile)] for tile in indicators)),
        ("aka_dora", red_count),
        ("ura_dora", sum(counts[_indicated(tile)] for tile in unders)),
    )
    shown_dora = tuple((name, count) for name, count in dora_counts if count)

    every = readings(built, STRUCTURE, discard=by_discard)
    if not every:
        raise NotAWinError(
            "not a win: the tiles make no four sets and a pair, seven pairs or thirteen orphans"
        )
    patterns = _table(rules)
    scored = [
        entry
        for reading in every
        if (
            entry := _score_reading(
                RiichiFacts(built, reading, context), patterns, shown_dora, rules
            )
        )
        is not None
    ]
    # Ryanpeikou reads the hand as four sets, never as seven pairs.
    if any(score.id == "ryanpeikou" for entry in scored for score in entry.patterns):
        scored = [entry for entry in scored if entry.reading.shape is not Shape.SEVEN_PAIRS]
    if not scored:
        raise NotAWinError("not a win: no yaku (dora are not yaku)", key="refusal.no_yaku")
    best = max(scored, key=lambda entry: entry.value)
    liable = request.liable
    liable_seat = Wind.parse(liable) if liable else None
    liable_base = 0
    if liable_seat is not None:
        if liable_seat is winner:
            raise NotAWinError("liable: the winner cannot be the seat that pays for the hand")
        liable_base = 8000 * sum(
            score.yakuman for score in best.patterns if score.id in LIABLE_YAKUMAN
        )
        if not liable_base:
            raise NotAWinError(
                "liable: a seat pays for the hand only for a daisangen or a daisuushii"
            )
        liable_base = min(liable_base, best.value.base)
    paid: Settlement = settle(
        best.value,
        winner,
        payer,
        request.honba,
        request.riichi_sticks,
        rules,
        liable_seat,
        liable_base,
    )
    value = best.value
    return RiichiResult(
        patterns=best.patterns,
        groups=tuple(str(group) for group in best.reading.groups),
        han=value.han,
        fu=value.fu,
        fu_items=best.fu_items,
        yakuman=value.yakuman,
        limit=value.limit,
        call=paid.call,
        payments=paid.payments,
        deposits=paid.deposits,
    )


def score_riichi(
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
    options: dict[str, Any] | None = None,
) -> RiichiResult:
    """Score a riichi hand given as the contract's request fields (`hand`, `win_tile`, `win`,
    `seat`, `round`, `discarder`, `melds`, `dora`, `ura_dora`, `events`, `honba`,
    `riichi_sticks`, `liable`, `options`): `read_riichi_request`, then
    `score_riichi_request`."""
    return score_riichi_request(
        read_riichi_request(
            hand,
            win_tile=win_tile,
            win=win,
            seat=seat,
            round=round,
            discarder=discarder,
            melds=melds,
            dora=dora,
            ura_dora=ura_dora,
            events=events,
            honba=honba,
            riichi_sticks=riichi_sticks,
            liable=liable,
            options=options,
        )
    )


def score_several_riichi(
    winners: Sequence[Mapping[str, Any]],
    *,
    discarder: str,
    honba: int = 0,
    riichi_sticks: int = 0,
    options: dict[str, Any] | None = None,
) -> tuple[RiichiResult, ...]:
    """Several players winning on one discard: each winner's fields as `score_riichi` takes
    them (`hand`, `win_tile`, `seat`, …, without `win`, `discarder`, `honba`,
    `riichi_sticks` or `options`), scored in turn after the discarder. Each is paid by the
    discarder; the honba and the deposits go to the first in turn. With `head_bump` only that
    first winner wins, and the result holds that one alone."""
    payer = Wind.parse(discarder)
    rules = read_options(options or {})
    seats = [Wind.parse(str(fields.get("seat", "E"))) for fields in winners]
    if not winners:
        raise InvalidRequestError("winners: at least one winner")
    if len(set(seats)) != len(seats):
        raise InvalidRequestError("winners: each seat wins once")
    shared = {"win", "discarder", "honba", "riichi_sticks", "options"}
    for fields in winners:
        named = sorted(shared & fields.keys())
        if named:
            raise InvalidRequestError(f"winners: {named[0]} is given once for all the winners")
    turn = {payer.next(step): step for step in range(1, 4)}
    if payer in seats:
        raise NotAWinError("winners: the discarder cannot win on their own discard")
    ordered = sorted(zip(seats, winners, strict=True), key=lambda entry: turn[entry[0]])
    if rules.head_bump:
        ordered = ordered[:1]
    results = []
    for place, (_, fields) in enumerate(ordered):
        hand = str(fields["hand"])
        rest = {name: value for name, value in fields.items() if name != "hand"}
        results.append(
            score_riichi(
                hand,
                **rest,
                win="discard",
                discarder=discarder,
                honba=honba if place == 0 else 0,
                riichi_sticks=riichi_sticks if place == 0 else 0,
                options=options,
            )
        )
    return tuple(results)


@dataclass(frozen=True)
class RiichiWait:
    """A tile a hand one short waits on, and what the win on it scores (None, with the
    reason, where it is no win: no yaku, or a shape the rules refuse)."""

    tile: str
    result: RiichiResult | None
    refusal: str | None = None


def riichi_waits(hand: str, *, melds: Sequence[str] = (), **fields: Any) -> tuple[RiichiWait, ...]:
    """The waits of a hand one tile short (`hand` of 13 tiles with its `melds`), each scored as
    `score_riichi` scores it with that winning tile and the other `fields` (`win`,
    `discarder`, `seat`, …), in tile order."""
    reds = read_red_fives(hand)
    declared = tuple(Meld.parse(read_red_fives(text, "melds").text) for text in melds)
    waiting = Hand.build(parse_tiles(reds.text), declared, sets=4, complete=False)
    found: list[RiichiWait] = []
    for tile in waits(waiting, STRUCTURE):
        try:
            result = score_riichi(hand + tile.mpsz, win_tile=tile.mpsz, melds=melds, **fields)
        except NotAWinError as refusal:
            found.append(RiichiWait(tile.mpsz, None, refusal.message))
        else:
            found.append(RiichiWait(tile.mpsz, result))
    return tuple(found)
