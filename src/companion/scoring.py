"""The generic scorer: a profile's pattern table over every reading, the best kept and explained.

Nothing here knows a pattern by name. A profile supplies its shapes, its table, its options and
its settlement (`companion.rules.profile.Profile`); this module only runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion import settlement, shapes
from companion.context import WinContext, WinType
from companion.errors import (
    CompanionError,
    InvalidHandError,
    InvalidRequestError,
    NotAWinError,
    TileParseError,
)
from companion.hand import Hand, Meld, parse_hand
from companion.request import ScoreRequest, parse_request
from companion.result import MultiResult, ScoreResult
from companion.rules import PROFILES, compiled, get_profile, legality
from companion.rules.compiled import Decided, Evaluated
from companion.rules.facts import (
    Facts,
    HandFacts,
    LaterFacts,
    context_features,
    hand_features,
    reading_features,
    standard_features,
    wind_features,
)
from companion.rules.options import Options
from companion.rules.patterns import PatternScore, Predicate
from companion.rules.profile import AnyProfile
from companion.settlement import Payments, add_payments, amount_json, zero_payments
from companion.shapes import Reading, Structure, block_keys, waits, waits_before
from companion.shapes.arrange import Candidate, candidates
from companion.tiles import KINDS, Tile, format_tiles, parse_tile, parse_tiles


def score(request: ScoreRequest | Mapping[str, Any]) -> ScoreResult:
    """Score one hand. `InvalidRequestError` for a request that is not well-formed; a hand that
    is not a legal win comes back as a result with `valid` false and the reason."""
    if isinstance(request, Mapping):
        own = own_reader(request.get("profile"))
        if own is not None:
            return own.score_request(request)
    request = parse_request(request)
    profile = get_profile(request.profile)
    options = profile.parse_options(request.options)
    context = request.context
    try:
        plan = _plan(profile, context, options)
        if context.flower_win is not None:
            return _score_flower_win(profile, request, plan)
        return _score_built(profile, build_hand(profile, request, options), plan)
    except (NotAWinError, InvalidHandError, TileParseError) as refusal:
        return _refused(profile, refusal)


def own_reader(profile_id: object) -> AnyProfile | None:
    """The profile of an id when it reads its requests itself (`reads_own_requests`), else
    None (an unknown id too: the shared reading names it)."""
    if not isinstance(profile_id, str) or profile_id not in PROFILES:
        return None
    profile = get_profile(profile_id)
    return profile if profile.reads_own_requests else None


def waits_json(data: Any) -> dict[str, Any] | None:
    """The waits API's answer for a profile that reads its own requests; None for the others
    (the API reads theirs itself)."""
    own = own_reader(data.get("profile")) if isinstance(data, Mapping) else None
    return None if own is None else own.waits_request(data)


def score_hand(
    profile: AnyProfile, hand: Hand, context: WinContext, options: Options
) -> ScoreResult:
    """Score a hand already built for `profile` (tiles parsed and validated), with options
    already parsed: the engine without the request's text handling. Refusals come back as
    results with `valid` false, as from `score`."""
    try:
        return _score_built(profile, hand, _plan(profile, context, options))
    except NotAWinError as refusal:
        return _refused(profile, refusal)


class _Plan:
    """What scoring in one context under one set of options works out once, whatever the hand:
    the context checked, its feature bits, the pattern table and shapes, the dealer tai, and the
    payments of each hand's value (`settle` is a function of the value, context and options)."""

    __slots__ = (
        "can_contradict",
        "context",
        "context_bits",
        "dealer_tai",
        "discard",
        "options",
        "outcomes",
        "overrides",
        "payments",
        "self_draw_context",
        "self_draw_ids",
        "self_draw_payments",
        "structure",
        "table",
    )

    def __init__(self, profile: AnyProfile, context: WinContext, options: Options) -> None:
        profile.check_context(context, options)
        self.context = context
        self.options = options
        self.context_bits = context_features(context)
        self.discard = context.by_discard
        self.can_contradict = legality.can_contradict(context)
        self.structure = profile.structure_for(options)
        self.table = profile.table_for(options)
        self.overrides = options.tai_overrides
        self.dealer_tai = profile.dealer_tai(context)
        self.self_draw_context = (
            replace(context, win=WinType.SELF_DRAW, discarder=None) if context.by_discard else None
        )
        self.self_draw_ids = profile.self_draw_ids if self.self_draw_context else frozenset()
        """The patterns that settle this win as a self-draw (none when it is one)."""
        self.payments: dict[Any, Payments] = {}
        """By the hand's value (the profile's, hashable), settled in this context."""
        self.self_draw_payments: dict[Any, Payments] = {}
        """By the hand's value, settled as a self-draw (`self_draw_ids`)."""
        self.outcomes = _outcomes(profile, options)
        """By a reading's feature bits: the predicates the bits leave open, and the table's
        outcome with its value when none of them matches (`decided_outcome`). Shared by every
        plan of these options: the context is in the bits."""

    def outcome(self, profile: AnyProfile, features: int) -> _Outcome:
        """What the bits decide on readings with these feature bits, worked out once. A value
        is made of the scores' ids and tai only, which the bits decide too."""
        open_, decided = self.table.decided_outcome(features, self.overrides)
        known = (
            open_,
            decided,
            None
            if decided is None
            else profile.value_of(decided.raw, decided.settling, self.options),
        )
        if len(self.outcomes) >= _MAX_OUTCOMES:
            self.outcomes.clear()
        self.outcomes[features] = known
        return known


_Outcome = tuple[tuple[tuple[int, Predicate], ...], Decided | None, Any]
"""The predicates to run, the outcome when none matches (None: evaluate the table), its value
(the profile's; None with no outcome)."""

_MAX_OUTCOMES = 1 << 16
"""Past this many feature sets under one profile and options their outcomes are forgotten and
worked out again."""
_OUTCOMES: dict[tuple[AnyProfile, int], tuple[Options, dict[int, _Outcome]]] = {}


def _outcomes(profile: AnyProfile, options: Options) -> dict[int, _Outcome]:
    """The outcomes memo of a profile under these options (told apart by identity, and held
    so that no other options can take their id while it is kept)."""
    key = (profile, id(options))
    entry = _OUTCOMES.get(key)
    if entry is None or entry[0] is not options:
        if len(_OUTCOMES) >= _MAX_PLANS:
            _OUTCOMES.clear()
        entry = _OUTCOMES[key] = (options, {})
    return entry[1]


_PLANS: dict[tuple[AnyProfile, tuple[object, ...], int], _Plan] = {}
_MAX_PLANS = 4096
"""Past this many contexts and options the plans are forgotten and made again."""


def _plan(profile: AnyProfile, context: WinContext, options: Options) -> _Plan:
    """The plan of a context that passes the profile's checks (`NotAWinError` otherwise: a
    refusal is not remembered). Options are told apart by identity, held by the plan so that no
    other options can take their id while it is kept."""
    # By the context's `key`, not the context: a tuple of its fields hashes and compares
    # without a call into Python.
    key = (profile, context.key, id(options))
    plan = _PLANS.get(key)
    if plan is None or plan.options is not options:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(profile, context, options)
    return plan


def _refused(profile: AnyProfile, refusal: CompanionError) -> ScoreResult:
    waits_found = refusal.waits if isinstance(refusal, _OneShortError) else ()
    return ScoreResult(
        False,
        profile.id,
        error=refusal.message,
        found_waits=waits_found,
        unit=profile.unit,
        error_key=refusal.key,
        error_params=refusal.params,
    )


class _OneShortError(NotAWinError):
    def __init__(
        self, message: str, waits_found: tuple[Tile, ...], key: str, params: dict[str, Any]
    ) -> None:
        super().__init__(message, key=key, params=params)
        self.waits = waits_found


def build_hand(profile: AnyProfile, request: ScoreRequest, options: Options | None = None) -> Hand:
    """The request's hand, validated for the profile's set count. A hand one tile short is
    refused with what it waits on (under `options`, the request's own when not given)."""
    if request.hand is None:
        raise NotAWinError(
            "enter the hand: the concealed tiles, winning tile included", key="refusal.no_hand"
        )
    if options is None:
        options = profile.parse_options(request.options)
    structure = profile.structure_for(options)
    concealed = parse_tiles(request.hand)
    melds = [Meld.parse(text) for text in request.melds]
    profile.check_tiles(concealed, melds)
    bonus = parse_tiles(request.bonus) if request.bonus else ()
    winning = parse_tile(request.win_tile) if request.win_tile else None
    structural = len([tile for tile in concealed if tile < KINDS]) + 3 * len(melds)
    if structural == 3 * structure.sets + 1 and winning is None:
        waiting = Hand.build(concealed, melds, bonus, sets=structure.sets, complete=False)
        found = waits(waiting, structure)
        listed = ", ".join(f"{tile.mpsz} ({tile.english})" for tile in found)
        tail = f"it waits on {listed}" if found else "no tile completes it"
        key = "refusal.one_short" if found else "refusal.one_short_no_waits"
        params = {"count": structural, "wait_tiles": [tile.mpsz for tile in found]}
        raise _OneShortError(
            f"{structural} tiles: one tile short of a winning hand; {tail}", found, key, params
        )
    return Hand.build(concealed, melds, bonus, winning, sets=structure.sets)


class _HandWaits:
    """The waits of a complete hand before its winning tile, read on first call only."""

    __slots__ = ("found", "hand", "keys", "structure")

    def __init__(self, hand: Hand, structure: Structure, keys: list[int]) -> None:
        self.hand = hand
        self.structure = structure
        self.keys = keys
        self.found: tuple[Tile, ...] | None = None

    def __call__(self) -> tuple[Tile, ...]:
        found = self.found
        if found is None:
            found = self.found = waits_before(self.hand, self.structure, self.keys)
        return found


def _score_built(profile: AnyProfile, hand: Hand, plan: _Plan) -> ScoreResult:
    context, options = plan.context, plan.options
    if plan.can_contradict:
        profile.check_possible(hand, context)
    notes = profile.check_hand(hand, context, options)
    structure = plan.structure
    keys = block_keys(hand.concealed)
    found = candidates(hand, structure, discard=plan.discard, keys=keys)
    if not found:
        raise _OneShortError(*_not_a_win(structure, hand))
    found_waits = _HandWaits(hand, structure, keys)
    overrides = plan.overrides
    table = plan.table
    outcomes = plan.outcomes
    first_match = table.first_match
    reads = table.reads
    hand_bits = hand_features(hand, keys, plan.context_bits)
    standard_bits = hand_bits | wind_features(hand, keys, context)
    shared: HandFacts | None = None
    # The best value so far, of the profile's type: the scorer only compares values.
    best: Any = None
    best_preference: int | None = None
    chosen: tuple[Candidate, int, Facts | None, Decided | Evaluated, Any] | None = None
    for candidate in found:
        shape, groups, index, role, counts = candidate
        if counts >= 0:
            # A standard reading: its bits from its blocks' summaries, its groups unread.
            features = standard_features(counts, role, standard_bits)
        else:
            features = reading_features(Reading(shape, groups, index, role), context, hand_bits)
        # Outcomes are the same for readings alike in the bits the table reads.
        key = features & reads
        known = outcomes.get(key)
        if known is None:
            known = plan.outcome(profile, key)
        open_, decided, value = known
        scored: Decided | Evaluated
        if decided is not None and not open_:
            # The bits decide the outcome: no facts needed until this reading is chosen.
            facts = None
            scored = decided
        else:
            if shared is None:
                shared = HandFacts(hand, context, keys=keys, features=hand_bits)
            reading = Reading(shape, groups, index, role)
            facts = Facts(hand, reading, context, found_waits, options, shared, features)
            first = first_match(facts, open_) if decided is not None else None
            if decided is not None and first is None:
                scored = decided
            else:
                # The outcome looked up by what the open predicates matched: the scores are
                # made only for the reading chosen.
                scored = table.evaluated(facts, key, overrides, first)
                value = profile.value_of(scored.raw, scored.settling, options)
        if chosen is None:
            best = value
            chosen = (candidate, features, facts, scored, value)
            continue
        if value < best:
            continue
        if value == best:
            # A tie: the profile's preference of reading decides, then reading order.
            if not profile.prefers_readings:
                continue
            if best_preference is None:
                best_preference = profile.preference(_reading(chosen[0]))
            preference = profile.preference(Reading(shape, groups, index, role))
            if preference <= best_preference:
                continue
            best_preference = preference
        else:
            best_preference = None
        best = value
        chosen = (candidate, features, facts, scored, value)
    assert chosen is not None
    candidate, features, facts, scored, value = chosen
    if facts is None:
        shape, groups, index, role, _ = candidate
        reading = Reading(shape, groups, index, role)
    else:
        reading = facts.reading
    if facts is None:
        facts = LaterFacts(hand, reading, context, found_waits, options, keys, hand_bits, features)
    scores = scored.scores(facts)
    return _result(profile, plan, value, scores, reading, found_waits, notes)


def _reading(candidate: Candidate) -> Reading:
    shape, groups, index, role, _ = candidate
    return Reading(shape, groups, index, role)


def _result(
    profile: AnyProfile,
    plan: _Plan,
    value: Any,
    scores: list[PatternScore],
    reading: Reading | None,
    found_waits: tuple[Tile, ...] | Callable[[], tuple[Tile, ...]],
    notes: list[str],
) -> ScoreResult:
    context, options = plan.context, plan.options
    short = profile.under_minimum(value, scores, options)
    meets = short is None
    if short is None:
        self_draw_ids = plan.self_draw_ids
        as_self_draw = [s.name for s in scores if s.id in self_draw_ids] if self_draw_ids else None
        if as_self_draw:
            notes = [*notes, f"{as_self_draw[0]} is settled as a self-draw"]
            memo = plan.self_draw_payments
        else:
            memo = plan.payments
        known = memo.get(value)
        if known is None:
            settling = plan.self_draw_context if as_self_draw else context
            assert settling is not None
            if len(memo) >= _MAX_PLANS:
                memo.clear()
            known = memo[value] = profile.settle(value, settling, options)
        # A copy: the caller may change its result's payments, never the plan's.
        payments: Payments = dict(known)
    else:
        payments = zero_payments()
        notes = [*notes, short.note]
    shown = profile.result_fields(value)
    return ScoreResult.of_fields(
        {
            "valid": True,
            "profile": profile.id,
            "error": None,
            "tai": shown.tai,
            "raw_tai": shown.raw_tai,
            "meets_minimum": meets,
            "patterns": tuple(scores),
            "reading": reading,
            "found_waits": found_waits,
            "payments": payments,
            "notes": tuple(notes),
            "dealer_tai": plan.dealer_tai if meets else None,
            "winner": context.seat,
            "unit": profile.unit,
            "short_of_minimum": short,
        }
    )


def _not_a_win(
    structure: Structure, hand: Hand
) -> tuple[str, tuple[Tile, ...], str, dict[str, Any]]:
    """The refusal of tiles that make none of the structure's shapes: its message, no waits,
    its key and parameters (the tiles, and the shapes by id: `sets_4`, `thirteen_orphans`...)."""
    shapes = [f"{_SET_WORDS[structure.sets]} sets and a pair"]
    shape_ids = [f"sets_{structure.sets}"]
    if structure.thirteen_orphans:
        shapes.append("Thirteen Orphans")
        shape_ids.append("thirteen_orphans")
    if structure.seven_pairs:
        shapes.append("seven pairs")
        shape_ids.append("seven_pairs")
    if structure.seven_pairs_triplet:
        shapes.append("seven pairs and a triplet")
        shape_ids.append("seven_pairs_triplet")
    concealed = sorted(hand.concealed)
    tiles = format_tiles(concealed)
    params = {"tiles": [tile.mpsz for tile in concealed], "shapes": shape_ids}
    message = f"{tiles} is not a winning hand: it is not {' or '.join(shapes)}"
    return message, (), "refusal.not_a_win", params


_SET_WORDS = {4: "four", 5: "five"}


def _score_flower_win(profile: AnyProfile, request: ScoreRequest, plan: _Plan) -> ScoreResult:
    context, options = plan.context, plan.options
    if not profile.flower_wins:
        raise NotAWinError(
            f"the {profile.id} profile has no flower wins",
            key="refusal.no_flower_wins",
            params={"profile": profile.id},
        )
    sent = [name for name in ("hand", "melds") if getattr(request, name)]
    if sent:
        assert context.flower_win is not None
        raise NotAWinError(
            f'flower_win "{context.flower_win.value}" is won without a hand: leave out '
            f"{' and '.join(sent)}",
            key=f"refusal.flower_win_{'_'.join(sent)}",
            params={"flower_win": context.flower_win.value},
        )
    bonus = parse_tiles(request.bonus) if request.bonus else ()
    hand = Hand((), (), bonus, None, profile.structure.sets)
    notes = profile.check_hand(hand, context, options)
    scores = profile.score_flower_win(hand, context, options)
    value = profile.value_of(sum(s.tai for s in scores), scores, options)
    return _result(profile, plan, value, scores, None, (), notes)


def clear_memos() -> None:
    """Forget everything the engine memoises across hands: the per-suit tables, each pattern
    table's candidates by feature set, the whole amounts made Fractions (for benchmarks that
    time a cold start)."""
    shapes.clear_memos()
    compiled.clear_compiled()
    settlement.clear_memos()
    _PLANS.clear()
    _OUTCOMES.clear()


def score_json(data: Any) -> dict[str, Any]:
    """JSON in, JSON out: the contract as the command line and HTTP API use it."""
    return score(data).to_json()


__all__ = [
    "ScoreResult",
    "amount_json",
    "clear_memos",
    "parse_hand",
    "score",
    "score_hand",
    "score_json",
]


# ---------------------------------------------------------------------------------------------
# Several winners on one discard


# What the winners of one discard share: they sit at one table, in one hand.
_SHARED_FIELDS = ("dealer", "dealer_streak", "round", "table_discards", "options")


def score_several(requests: Any) -> MultiResult:
    """Score every winner of one discard separately and sum what the discarder pays.

    `InvalidRequestError` unless the requests are discard wins of distinct winners on one
    discarder, in one profile that allows several winners, agreeing on the table's state. A
    claim that is not a win makes the whole result `valid` false, naming the seat, and so do
    winners that contradict each other (`check_one_discard`)."""
    if not isinstance(requests, list | tuple) or not requests:
        raise InvalidRequestError("several winners are a list of requests, one per winner")
    first_request = requests[0]
    if isinstance(first_request, Mapping):
        own = own_reader(first_request.get("profile"))
        if own is not None:
            if any(
                not isinstance(request, Mapping) or request.get("profile") != own.id
                for request in requests
            ):
                raise InvalidRequestError(
                    "the winners of one discard must be scored in one profile"
                )
            return own.score_several_requests(requests)
    parsed = [parse_request(request) for request in requests]
    first = parsed[0]
    profile = get_profile(first.profile)
    if any(request.profile != first.profile for request in parsed):
        raise InvalidRequestError("the winners of one discard must be scored in one profile")
    if not profile.several_winners:
        raise InvalidRequestError(f"the {profile.id} profile has one winner per discard")
    if any(request.win is not WinType.DISCARD or request.flower_win for request in parsed):
        raise InvalidRequestError("several winners share a discard: every request is a discard win")
    discarder = first.discarder
    if discarder is None or any(request.discarder is not discarder for request in parsed):
        raise InvalidRequestError("several winners must name the same discarder")
    seats = [request.seat for request in parsed]
    if len(set(seats)) != len(seats):
        raise InvalidRequestError("each winner of one discard must sit in a different seat")
    for name in _SHARED_FIELDS:
        values = [getattr(request, name) for request in parsed]
        if any(value != values[0] for value in values):
            raise InvalidRequestError(f"the winners of one discard must agree on {name}")
    results = tuple(score(request) for request in parsed)
    refused = [
        f"{request.seat.value}: {result.error}"
        for request, result in zip(parsed, results, strict=True)
        if not result.valid
    ]
    if refused:
        return MultiResult(False, profile.id, discarder, results, error="; ".join(refused))
    try:
        check_one_discard(parsed)
    except NotAWinError as refusal:
        return MultiResult(False, profile.id, discarder, results, error=refusal.message)
    payments = add_payments(*(dict(result.payments) for result in results))
    return MultiResult(True, profile.id, discarder, results, payments)


def check_one_discard(requests: Sequence[ScoreRequest | Mapping[str, Any]]) -> None:
    """`NotAWinError` when winners of one discard, each a legal win on its own, contradict each
    other: another winning tile, other events, a fifth copy of a tile between their hands."""
    winners = []
    for request in map(parse_request, requests):
        if request.flower_win is None:
            winners.append((build_hand(get_profile(request.profile), request), request.context))
    legality.check_one_discard(winners)


__all__ += ["MultiResult", "check_one_discard", "score_several"]
