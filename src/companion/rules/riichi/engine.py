"""Scoring one riichi hand: its readings, each one's yaku, dora and fu, the reading that pays
most, and its settlement.

The profile (`companion.rules.riichi.profile`) reads a request and calls `score_riichi` with
its fields, which `request.py` reads and checks; the ledger's points game scores a whole hand
the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.errors import InvalidRequestError, NotAWinError
from companion.hand import Hand, Meld, MeldKind
from companion.rules.riichi import features, yaku
from companion.rules.riichi.facts import RiichiFacts
from companion.rules.riichi.fu import FuItem, fu_items, reading_fu, rounded_fu
from companion.rules.riichi.options import RiichiOptions, read_options
from companion.rules.riichi.points import RiichiValue, Settlement, settle, value_of
from companion.rules.riichi.request import RiichiRequest, read_riichi_request
from companion.rules.riichi.table import Found, RiichiTable
from companion.rules.riichi.tiles import read_red_fives
from companion.shapes import Group, Reading, Shape, Structure, WinRole, waits
from companion.shapes.arrange import candidates
from companion.shapes.blocks import BLOCK_OF, UNIT, block_keys, keys_with_melds
from companion.tiles import Tile, Wind, parse_tiles

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


class Outcome(NamedTuple):
    """What a reading's yaku make, dora aside: the same for every reading that scores the same
    yaku (the scores are immutable values, shared)."""

    scores: tuple[RiichiScore, ...]
    han: int
    yakuman: int
    pinfu: bool
    ryanpeikou: bool


def _outcome(found: Found, closed: bool, options: RiichiOptions) -> Outcome | None:
    """The scores of what matched on a reading (`yaku.scored`), None for no yaku."""
    if not options.open_tanyao and not closed:
        found = [entry for entry in found if entry[0].id != "tanyao"]
    if not found:
        return None
    scores: list[RiichiScore] = []
    yakuman = han = 0
    for pattern, count, value in found:
        if pattern.limit:
            worth = 2 if options.double_yakuman and pattern.id in yaku.DOUBLE_FORMS else 1
            scores.append(_score(pattern.id, pattern.name, 0, worth, 1))
            yakuman = yakuman + worth if options.multiple_yakuman else max(yakuman, worth)
        else:
            scores.append(_score(pattern.id, pattern.name, value, 0, count))
            han += value
    ids = {score.id for score in scores}
    return Outcome(tuple(scores), han, yakuman, "pinfu" in ids, "ryanpeikou" in ids)


class ScoredReading(NamedTuple):
    """A reading that has yaku: its value, its patterns (dora last) and its fu."""

    value: RiichiValue
    reading: Reading
    patterns: tuple[RiichiScore, ...]
    fu_items: tuple[FuItem, ...]


_SCORES: dict[tuple[str, int, int, int], RiichiScore] = {}
"""Each score by its id, han, yakuman and count, made once: a score is an immutable value,
and a few hundred come up (han and counts are small numbers)."""


def _score(id: str, name: str, han: int, yakuman: int, count: int) -> RiichiScore:
    found = _SCORES.get((id, han, yakuman, count))
    if found is None:
        found = RiichiScore(id, name, han=han, yakuman=yakuman, count=count)
        if len(_SCORES) < 4096:
            _SCORES[id, han, yakuman, count] = found
    return found


def _dora_score(dora_id: str, count: int) -> RiichiScore:
    return _score(dora_id, yaku.DORA_NAMES[dora_id], count, 0, count)


class _Plan:
    """What the scorer keeps for one options value: its yaku table by features, and the values
    of each (han, fu, yakuman) and the settlements of each value and seats, worked out once.
    None of it depends on a hand's tiles."""

    __slots__ = ("indicated_at", "options", "settlements", "table", "values")

    def __init__(self, options: RiichiOptions) -> None:
        self.options = options
        """Held, so that no other options take their id (plans are found by it)."""

        def build(found: Found, closed: bool) -> Outcome | None:
            return _outcome(found, closed, options)

        self.table: RiichiTable[Outcome] = RiichiTable(
            yaku.patterns_of(options), build, features.CLOSED, features.DRAGON_COUNT
        )
        self.indicated_at = _indicated_at(options.dora_of)
        """By indicator, where the count of its dora sits in the block keys."""
        self.values: dict[tuple[int, int, int], RiichiValue] = {}
        self.settlements: dict[tuple[int, Wind, Wind | None, int, int], Settlement] = {}

    def value(self, han: int, fu: int, yakuman: int) -> RiichiValue:
        key = (han, fu, yakuman)
        found = self.values.get(key)
        if found is None:
            found = value_of(han, fu, yakuman, self.options)
            if len(self.values) < 4096:  # han and fu are small numbers: a few hundred at most
                self.values[key] = found
        return found

    def settle(
        self, value: RiichiValue, seat: Wind, discarder: Wind | None, honba: int, sticks: int
    ) -> Settlement:
        """`settle` of a value without a liable seat (the result's copy of the payments is
        its own)."""
        key = (value.base, seat, discarder, honba, sticks)
        found = self.settlements.get(key)
        if found is None:
            found = settle(value, seat, discarder, honba, sticks, self.options)
            if len(self.settlements) >= 4096:
                self.settlements.clear()
            self.settlements[key] = found
        return found


_PLANS: dict[int, _Plan] = {}
"""Each options' plan by their identity (options are read once per distinct request, so few
exist)."""


def _plan(options: RiichiOptions) -> _Plan:
    found = _PLANS.get(id(options))
    if found is None or found.options is not options:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        found = _PLANS[id(options)] = _Plan(options)
    return found


def clear_memos() -> None:
    """Forget every outcome, value and settlement the riichi scorer keeps (for benchmarks that
    time a cold start; the per-suit memos are `companion.shapes.clear_memos`)."""
    _PLANS.clear()
    _SCORES.clear()
    _DORA_ITEMS.clear()


def _with_fu(
    plan: _Plan, outcome: Outcome, facts: RiichiFacts, dora: tuple[tuple[str, int], ...]
) -> ScoredReading:
    """A reading that has yaku: its fu and, unless it is a yakuman, its dora."""
    items = fu_items(facts, outcome.pinfu, plan.options.double_wind_pair_fu)
    fu = rounded_fu(items)
    scores, han, yakuman = outcome.scores, outcome.han, outcome.yakuman
    if not yakuman and dora:
        scores = (*scores, *[_dora_score(dora_id, count) for dora_id, count in dora])
        for _, count in dora:
            han += count
    return ScoredReading(plan.value(han, fu, yakuman), facts.reading, scores, items)


def _shown_dora(request: RiichiRequest) -> tuple[tuple[str, int], ...]:
    """The dora the hand holds, by kind (`dora`, `aka_dora`, `ura_dora`, `kita`), those it has:
    from the counts of its tiles, every indicator's dora counted (a North set aside is a
    North held, for the indicators)."""
    held = request.hand.counts()
    held[Tile.NORTH] += request.kita
    dora_of = request.options.dora_of
    dora_counts = (
        ("dora", sum(held[dora_of[tile]] for tile in request.dora)),
        ("aka_dora", request.red_fives),
        ("ura_dora", sum(held[dora_of[tile]] for tile in request.ura_dora)),
        ("kita", request.kita),
    )
    return tuple((name, count) for name, count in dora_counts if count)


def scored_readings(request: RiichiRequest, *, by_predicates: bool = False) -> list[ScoredReading]:
    """Every reading of the request's hand that has yaku, scored, in the order of the hand's
    readings. `by_predicates`: every yaku's predicate run on every reading, and the dora
    counted tile by tile, what the scorer's table by features and its dora by block keys are
    held to (tests/test_riichi_table.py). A hand that is no win has none."""
    built, context = request.hand, request.context
    plan = _plan(request.options)
    keys = block_keys(built.concealed)
    every = candidates(built, STRUCTURE, discard=context.by_discard, keys=keys)
    if not by_predicates:
        return _scored_by_features(request, plan, every, keys)[0]
    shown_dora = _shown_dora(request)
    found: list[ScoredReading] = []
    patterns = yaku.patterns_of(request.options)
    for shape, groups, index, role, _ in every:
        facts = RiichiFacts(built, Reading(shape, groups, index, role), context)
        outcome = _outcome(yaku.scored(patterns, facts), facts.closed, request.options)
        if outcome is not None:
            found.append(_with_fu(plan, outcome, facts, shown_dora))
    return found


_INDICATED_AT: dict[tuple[Tile, ...], tuple[tuple[int, int], ...]] = {}


def _indicated_at(dora_of: tuple[Tile, ...]) -> tuple[tuple[int, int], ...]:
    """By indicator: the block of the dora it makes (`dora_of`) and where its count sits in
    the block key (worked out once per table of dora)."""
    found = _INDICATED_AT.get(dora_of)
    if found is None:
        found = _INDICATED_AT[dora_of] = tuple(
            (BLOCK_OF[dora], UNIT[dora].bit_length() - 1) for dora in dora_of
        )
    return found


def _scored_by_features(
    request: RiichiRequest,
    plan: _Plan,
    every: Sequence[tuple[Shape, tuple[Group, ...], int, WinRole, int]],
    keys: list[int],
) -> tuple[list[ScoredReading], bool]:
    """The readings that have yaku, their yaku looked up by their features (`table.py`), and
    whether one of them is ryanpeikou."""
    built, context = request.hand, request.context
    melds = built.melds
    if melds:
        closed = all(meld.kind is _CONCEALED_KONG for meld in melds)
        held = keys_with_melds(keys, melds)
    else:
        closed, held = True, keys
    # The dora read off the block keys (a kind's count is three bits of its block's key); a
    # North set aside (sanma's kita) counts for each indicator pointing at North.
    indicated_at = plan.indicated_at
    dora = ura = 0
    for indicator in request.dora:
        block, shift = indicated_at[indicator]
        dora += held[block] >> shift & 7
    for indicator in request.ura_dora:
        block, shift = indicated_at[indicator]
        ura += held[block] >> shift & 7
    kita = request.kita
    if kita:
        dora_of = plan.options.dora_of
        dora += kita * sum(dora_of[indicator] is _NORTH for indicator in request.dora)
        ura += kita * sum(dora_of[indicator] is _NORTH for indicator in request.ura_dora)
    dora_scores, dora_han = _dora_items(dora, request.red_fives, ura, kita)
    by_discard = context.by_discard
    shared = features.context_features(context) | features.hand_features(
        held, closed, bool(melds), built.winning_tile or 0
    )
    seat_tile, round_tile = context.seat.tile, context.round.tile
    table = plan.table
    known, decide, evaluate = table.known, table.decide, table.evaluate
    reading_features, reading_fu, value = _reading_features, _reading_fu, plan.value
    double_wind_pair_fu = plan.options.double_wind_pair_fu
    reads = table.reads_closed if closed else table.reads_open
    scored: list[ScoredReading] = []
    ryanpeikou = False
    for shape, groups, index, role, counts in every:
        found = (
            shared | reading_features(shape, groups, counts, role, seat_tile, round_tile)
        ) & reads
        undecided, _, outcome = known.get(found) or decide(found)
        if undecided:
            facts = RiichiFacts(built, Reading(shape, groups, index, role), context)
            facts.closed = closed
            outcome = evaluate(found, facts, undecided, outcome)
        if outcome is None:
            continue  # no yaku
        items, fu = reading_fu(
            shape,
            groups,
            role,
            by_discard,
            closed,
            seat_tile,
            round_tile,
            outcome.pinfu,
            double_wind_pair_fu,
        )
        scores, han, yakuman = outcome.scores, outcome.han, outcome.yakuman
        if dora_han and not yakuman:
            scores += dora_scores
            han += dora_han
        reading = Reading(shape, groups, index, role)
        scored.append(ScoredReading(value(han, fu, yakuman), reading, scores, items))
        ryanpeikou = ryanpeikou or outcome.ryanpeikou
    return scored, ryanpeikou


_DORA_ITEMS: dict[tuple[int, int, int, int], tuple[tuple[RiichiScore, ...], int]] = {}
"""The dora items and their han by the counts of dora, red fives, ura dora and kita: a few
hundred come up. Kept rather than made for every hand: with kita, making them was a seventh of
sanma's scoring time (bench/compare.py, docs/performance.md)."""


def _dora_items(dora: int, aka: int, ura: int, kita: int) -> tuple[tuple[RiichiScore, ...], int]:
    """The dora items of a hand (`dora`, `aka_dora`, `ura_dora`, `kita`, those it has, in that
    order) and their han."""
    key = (dora, aka, ura, kita)
    found = _DORA_ITEMS.get(key)
    if found is None:
        counts = (("dora", dora), ("aka_dora", aka), ("ura_dora", ura), ("kita", kita))
        items = tuple(_dora_score(name, count) for name, count in counts if count)
        found = (items, dora + aka + ura + kita)
        if len(_DORA_ITEMS) < 4096:
            _DORA_ITEMS[key] = found
    return found


_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_NORTH = Tile.NORTH
_reading_features = features.reading_features
_reading_fu = reading_fu
_new = object.__new__


def score_riichi_request(request: RiichiRequest) -> RiichiResult:
    """Score a request read by `read_riichi_request`: the reading that pays most, settled.
    Refuses (`NotAWinError`) tiles that are no win, a win without a yaku, and a `liable` seat
    that cannot pay for the hand."""
    built, context = request.hand, request.context
    winner, payer = context.seat, context.discarder
    keys = block_keys(built.concealed)
    every = candidates(built, STRUCTURE, discard=context.by_discard, keys=keys)
    if not every:
        raise NotAWinError(
            "not a win: the tiles make no four sets and a pair, seven pairs or thirteen orphans"
        )
    plan = _plan(request.options)
    scored, ryanpeikou = _scored_by_features(request, plan, every, keys)
    # Ryanpeikou reads the hand as four sets, never as seven pairs.
    if ryanpeikou:
        scored = [entry for entry in scored if entry.reading.shape is not Shape.SEVEN_PAIRS]
    if not scored:
        raise NotAWinError("not a win: no yaku (dora are not yaku)", key="refusal.no_yaku")
    best = scored[0] if len(scored) == 1 else max(scored, key=lambda entry: entry.value)
    value = best.value
    liable = request.liable
    if liable:
        liable_seat = Wind.parse(liable)
        if liable_seat is winner:
            raise NotAWinError("liable: the winner cannot be the seat that pays for the hand")
        liable_base = 8000 * sum(
            score.yakuman for score in best.patterns if score.id in request.options.liable_yakuman
        )
        if not liable_base:
            raise NotAWinError(
                "liable: a seat pays for the hand only for a daisangen or a daisuushii"
                + (" or a suukantsu" if request.options.suukantsu_liability else "")
            )
        liable_base = min(liable_base, value.base)
        paid = settle(
            value,
            winner,
            payer,
            request.honba,
            request.riichi_sticks,
            request.options,
            liable_seat,
            liable_base,
        )
    else:
        paid = plan.settle(value, winner, payer, request.honba, request.riichi_sticks)
    # The result's fields set at once (a frozen dataclass's __init__ sets each through
    # object.__setattr__): the same value, equal and shown as one made by its constructor.
    result = _new(RiichiResult)
    result.__dict__.update(
        patterns=best.patterns,
        groups=tuple([group.text for group in best.reading.groups]),
        han=value.han,
        fu=value.fu,
        fu_items=best.fu_items,
        yakuman=value.yakuman,
        limit=value.limit,
        call=paid.call,
        payments=paid.payments.copy(),
        deposits=paid.deposits,
        unit="han",
        valid=True,
    )
    return result


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


Scorer = Callable[..., RiichiResult]
"""A scorer of a hand given as the request's fields (`score_riichi`, sanma's `score_sanma`)."""


def in_turn_after(payer: Wind, seats: Sequence[Wind]) -> dict[Wind, int]:
    """Each other seat of `seats` (in turn order) by how many turns after `payer` it plays."""
    start = seats.index(payer) if payer in seats else 0
    return {seats[(start + step) % len(seats)]: step for step in range(1, len(seats))}


def score_several_riichi(
    winners: Sequence[Mapping[str, Any]],
    *,
    discarder: str,
    honba: int = 0,
    riichi_sticks: int = 0,
    options: dict[str, Any] | None = None,
    score: Scorer | None = None,
    read: Callable[[Mapping[str, Any]], RiichiOptions] = read_options,
) -> tuple[RiichiResult, ...]:
    """Several players winning on one discard: each winner's fields as `score_riichi` takes
    them (`hand`, `win_tile`, `seat`, …, without `win`, `discarder`, `honba`,
    `riichi_sticks` or `options`), scored in turn after the discarder. Each is paid by the
    discarder; the honba and the deposits go to the first in turn. With `head_bump` only that
    first winner wins, and the result holds that one alone. A variant (`sanma`) gives its own
    scorer of one hand (`score`) and reader of the options (`read`)."""
    score = score or score_riichi
    payer = Wind.parse(discarder)
    rules = read(options or {})
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
    turn = in_turn_after(payer, rules.seats)
    strangers = [seat.value for seat in (payer, *seats) if seat not in rules.seats]
    if strangers:
        raise InvalidRequestError(f"winners: no seat {strangers[0]} at a table of three")
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
            score(
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
    refusal_key: str | None = None
    """The refusal's stable key, for saying it in another language (None: English only)."""
    refusal_params: Mapping[str, Any] | None = None


def riichi_waits(
    hand: str,
    *,
    melds: Sequence[str] = (),
    score: Scorer | None = None,
    gone: frozenset[Tile] = frozenset(),
    **fields: Any,
) -> tuple[RiichiWait, ...]:
    """The waits of a hand one tile short (`hand` of 13 tiles with its `melds`), each scored as
    `score_riichi` (or a variant's `score`) scores it with that winning tile and the other
    `fields` (`win`, `discarder`, `seat`, …), in tile order. `gone`: kinds no copy of which is
    left to win on (sanma's North when the kita make four), which are no waits."""
    score = score or score_riichi
    reds = read_red_fives(hand)
    declared = tuple(Meld.parse(read_red_fives(text, "melds").text) for text in melds)
    waiting = Hand.build(parse_tiles(reds.text), declared, sets=4, complete=False)
    found: list[RiichiWait] = []
    for tile in waits(waiting, STRUCTURE):
        if tile in gone:
            continue
        try:
            result = score(hand + tile.mpsz, win_tile=tile.mpsz, melds=melds, **fields)
        except NotAWinError as refusal:
            found.append(RiichiWait(tile.mpsz, None, refusal.message, refusal.key, refusal.params))
        else:
            found.append(RiichiWait(tile.mpsz, result))
    return tuple(found)
