"""The table ledger's domain: a table's setup, its recorded events, and the state replayed from
them (dealer, seat winds, round wind, dealer streak, totals, hands played), corrections,
settle-up and export rows. Pure: no I/O; the engine (`companion.scoring`) is called to score.

The record is append-only. A win, a drawn hand or an instant payout is an *outcome*; a void or an
amendment is a *correction* that names the outcome it corrects (by its event number). Replay
walks the outcomes in order; an outcome with a correction in force counts as its latest
correction says (nothing for a void, the amended outcome for an amendment), at its own place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any, ClassVar

from companion.context import WinContext, WinType
from companion.errors import CompanionError, InvalidRequestError, NotAWinError
from companion.payouts import explain_payout, payout_options
from companion.request import FIELDS as REQUEST_FIELDS
from companion.rules import get_profile
from companion.rules.base import Options, Profile
from companion.scoring import check_one_discard, score
from companion.settlement import Payments
from companion.tiles import WINDS, Wind

SEATS = 4

MAX_PLAYER_NAME = 40
"""The longest player name, in characters."""
MAX_TABLE_NAME = 60
"""The longest table name, in characters."""
MAX_NOTE = 200
"""The longest reason or `by` of a correction, in characters."""
MAX_CORRECTIONS = 10
"""How often one event may be corrected (voided or amended)."""
MAX_EVENTS = 20_000
"""How many events one table may hold (corrections included)."""

Amounts = tuple[Fraction, ...]
"""One amount per player, in seat order (players[0] first)."""

ZERO: Amounts = (Fraction(0),) * SEATS


# ---------------------------------------------------------------------------------------------
# Errors


class LedgerError(CompanionError):
    """A ledger request that cannot be carried out; the message says why."""


class UnknownTableError(LedgerError):
    """No table has that id."""


class UnknownPlayerError(LedgerError):
    """A name that is not one of the table's players."""


class UnknownEventError(LedgerError):
    """An event number that the table's record does not have, or cannot be corrected."""


class MissingEventError(UnknownEventError):
    """An event number that the table's record does not have at all."""


class NotPayableWinError(LedgerError):
    """A win the engine refuses, or one under the table's minimum: it is not recorded."""


class TableFinishedError(LedgerError):
    """The table's planned hands are all played."""


class StaleWriteError(LedgerError):
    """The writer expected another hand than the one being played: someone recorded it."""


class IdempotencyConflictError(LedgerError):
    """An idempotency key already used for a different entry."""


class LimitError(LedgerError):
    """A request over one of the limits on what a client may store; the message names it."""


class TableBusyError(LedgerError):
    """Other writers kept the table busy through every retry: the same write may be sent again."""


# ---------------------------------------------------------------------------------------------
# Amounts


def format_amount(amount: Fraction) -> str:
    """Whole amounts as integers, terminating decimals as decimals, anything else as p/q."""
    if amount.denominator == 1:
        return str(amount.numerator)
    denominator = amount.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{amount.numerator}/{amount.denominator}"
    digits = 0
    while (amount * 10**digits).denominator != 1:
        digits += 1
    return f"{float(amount):.{digits}f}"


def amount_number(amount: Fraction) -> int | float:
    """A JSON number: whole amounts as integers (the scoring result's convention)."""
    return amount.numerator if amount.denominator == 1 else float(amount)


def amounts_text(amounts: Sequence[Fraction]) -> list[str]:
    """Exact amounts for storage: "6", "-3/2"."""
    return [str(amount) for amount in amounts]


def parse_amounts(values: Sequence[Any]) -> Amounts:
    if len(values) != SEATS:
        raise ValueError("a stored event must have one amount per player")
    return tuple(Fraction(str(value)) for value in values)


def add(left: Sequence[Fraction], right: Sequence[Fraction]) -> Amounts:
    return tuple(a + b for a, b in zip(left, right, strict=True))


# ---------------------------------------------------------------------------------------------
# The table's setup


@dataclass(frozen=True)
class TableSetup:
    """What a table is created with; never changes."""

    profile: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    """The profile options as given (JSON values), validated by the profile."""
    planned_hands: int | None = None
    name: str = ""
    """What the players call the table (optional, shown on its page and in the export)."""
    planned_rounds: int | None = None
    """Full rounds to play: a round is the deal passing round all four seats, so four rounds
    are East round through North round (None: not counted in rounds)."""

    def player(self, name: str) -> int:
        """The seat index of the player called `name` (case and surrounding spaces ignored)."""
        key = name.strip().casefold()
        for index, player in enumerate(self.players):
            if player.casefold() == key:
                return index
        raise UnknownPlayerError(
            f"no player named {name.strip() or repr(name)} at this table: {', '.join(self.players)}"
        )

    @property
    def engine_profile(self) -> Profile:
        return get_profile(self.profile)

    @property
    def engine_options(self) -> Options:
        return self.engine_profile.parse_options(self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "players": list(self.players),
            "options": dict(self.options),
            "planned_hands": self.planned_hands,
            "planned_rounds": self.planned_rounds,
            "name": self.name,
        }


def new_setup(
    profile: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    planned_hands: int | None = None,
    name: str = "",
    planned_rounds: int | None = None,
) -> TableSetup:
    """A validated setup: a known profile, valid options, four distinct names, hands >= 1, a
    table name within its limit."""
    table_name = name.strip()
    if len(table_name) > MAX_TABLE_NAME:
        raise LimitError(f"a table's name can have at most {MAX_TABLE_NAME} characters")
    found = get_profile(profile)
    options = dict(options or {})
    found.parse_options(options)
    names = tuple(player.strip() for player in players)
    if len(names) != SEATS:
        raise LedgerError(
            f"a table has four players in seat order, East first; got {len(names)}: "
            + ", ".join(names)
        )
    for player in names:
        if not player:
            raise LedgerError("a player's name cannot be empty")
        if len(player) > MAX_PLAYER_NAME:
            raise LimitError(
                f"a player's name can have at most {MAX_PLAYER_NAME} characters: {player[:20]}..."
            )
        if "," in player:
            raise LedgerError(f"a player's name cannot contain a comma: {player}")
    seen: dict[str, str] = {}
    for player in names:
        if player.casefold() in seen:
            raise LedgerError(
                f"each player needs a different name: {seen[player.casefold()]} and {player} "
                "are the same"
            )
        seen[player.casefold()] = player
    if planned_hands is not None and planned_hands < 1:
        raise LedgerError("the planned number of hands must be at least 1")
    if planned_rounds is not None and planned_rounds < 1:
        raise LedgerError("the planned number of rounds must be at least 1")
    if planned_rounds is not None and planned_hands is not None:
        raise LedgerError("plan a table in hands or in rounds, not both")
    return TableSetup(found.id, names, options, planned_hands, table_name, planned_rounds)


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class TableState:
    """Everything derived from the record up to some point."""

    players: tuple[str, ...]
    planned_hands: int | None = None
    planned_rounds: int | None = None
    passes: int = 0
    """How many times the deal has passed to the next player."""
    streak: int = 0
    """The dealer's consecutive wins so far (`tw` dealer tai; shown for every profile)."""
    hands: int = 0
    """Hands played: wins and drawn hands (instant payouts are not hands)."""
    totals: Amounts = ZERO

    @property
    def dealer(self) -> int:
        return self.passes % SEATS

    @property
    def round(self) -> Wind:
        """East for the first turn of the deal round all four players, then South, West, North,
        and East again."""
        return WINDS[(self.passes // SEATS) % SEATS]

    def seat_wind(self, player: int) -> Wind:
        """The dealer sits East; the others follow in seat order."""
        return WINDS[(player - self.dealer) % SEATS]

    def player_at(self, wind: Wind) -> int:
        return (self.dealer + wind.index) % SEATS

    @property
    def rounds_played(self) -> int:
        """Full rounds played: the deal has gone round all four seats this many times."""
        return self.passes // SEATS

    @property
    def finished(self) -> bool:
        if self.planned_rounds is not None:
            return self.rounds_played >= self.planned_rounds
        return self.planned_hands is not None and self.hands >= self.planned_hands

    @property
    def finished_text(self) -> str:
        """Why no more hands are taken (for a refusal)."""
        if self.planned_rounds is not None:
            return f"the table's {self.planned_rounds} rounds are all played"
        return f"the table's {self.planned_hands} hands are all played"

    @property
    def next_hand(self) -> int:
        return self.hands + 1

    def amounts(self, payments: Mapping[Wind, Fraction]) -> Amounts:
        """Engine payments by seat wind as amounts by player."""
        return tuple(payments.get(self.seat_wind(player), Fraction(0)) for player in range(SEATS))

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [
                {
                    "name": name,
                    "seat": self.seat_wind(index).value,
                    "total": amount_number(self.totals[index]),
                    "total_exact": str(self.totals[index]),
                }
                for index, name in enumerate(self.players)
            ],
            "hands": self.hands,
            "planned_hands": self.planned_hands,
            "planned_rounds": self.planned_rounds,
            "round_number": min(
                self.rounds_played + 1, self.planned_rounds or self.rounds_played + 1
            ),
            "deals_in_round": self.passes % SEATS + 1,
            "finished": self.finished,
            "dealer": self.players[self.dealer],
            "dealer_streak": self.streak,
            "round": self.round.value,
            "next_hand": None if self.finished else self.next_hand,
        }


def initial_state(setup: TableSetup) -> TableState:
    return TableState(setup.players, setup.planned_hands, setup.planned_rounds)


# ---------------------------------------------------------------------------------------------
# Outcomes and corrections


@dataclass(frozen=True)
class WinnerScore:
    """One winner's part of a win, as the engine (or the profile's settlement) returned it."""

    player: int
    tai: int
    payments: Amounts
    dealer_tai: int | None = None
    request: Mapping[str, Any] | None = None
    """Full-hand entry: the scoring request as scored. None for agreed tai."""
    patterns: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def entry(self) -> str:
        return "tai" if self.request is None else "hand"

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "tai": self.tai,
            "payments": amounts_text(self.payments),
            "dealer_tai": self.dealer_tai,
            "request": None if self.request is None else dict(self.request),
            "patterns": [[name, tai] for name, tai in self.patterns],
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WinnerScore:
        return cls(
            player=int(data["player"]),
            tai=int(data["tai"]),
            payments=parse_amounts(data["payments"]),
            dealer_tai=None if data.get("dealer_tai") is None else int(data["dealer_tai"]),
            request=data.get("request"),
            patterns=tuple((str(name), int(tai)) for name, tai in data.get("patterns", ())),
            notes=tuple(str(note) for note in data.get("notes", ())),
        )


@dataclass(frozen=True)
class Win:
    winners: tuple[WinnerScore, ...]
    discarder: int | None
    liable: int | None = None
    dealer: int = 0
    """The dealer, streak and round the hand was scored with (the engine's input)."""
    streak: int = 0
    round: Wind = Wind.EAST
    unit: str = "tai"
    """What the winners' `tai` count: `tai`, or `faan` at an `hk` table."""
    kind: ClassVar[str] = "win"
    is_hand: ClassVar[bool] = True

    @property
    def self_draw(self) -> bool:
        return self.discarder is None

    @property
    def payments(self) -> Amounts:
        total = ZERO
        for winner in self.winners:
            total = add(total, winner.payments)
        return total

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "winners": [winner.to_json() for winner in self.winners],
            "discarder": self.discarder,
            "liable": self.liable,
            "scored_with": {
                "dealer": self.dealer,
                "streak": self.streak,
                "round": self.round.value,
            },
        }
        if self.unit != "tai":
            data["unit"] = self.unit
        return data


@dataclass(frozen=True)
class Draw:
    kind: ClassVar[str] = "draw"
    is_hand: ClassVar[bool] = True

    @property
    def payments(self) -> Amounts:
        return ZERO

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Payout:
    """An instant payout (`sg-table`): each of the other three pays the holder."""

    player: int
    event: str
    at_start: bool
    payments: Amounts
    label: str = ""
    notes: tuple[str, ...] = ()
    kind: ClassVar[str] = "payout"
    is_hand: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "event": self.event,
            "at_start": self.at_start,
            "payments": amounts_text(self.payments),
            "label": self.label,
            "notes": list(self.notes),
        }


Outcome = Win | Draw | Payout


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    kind = data.get("kind")
    if kind == "win":
        scored = data.get("scored_with") or {}
        return Win(
            winners=tuple(WinnerScore.from_json(item) for item in data["winners"]),
            discarder=None if data.get("discarder") is None else int(data["discarder"]),
            liable=None if data.get("liable") is None else int(data["liable"]),
            dealer=int(scored.get("dealer", 0)),
            streak=int(scored.get("streak", 0)),
            round=Wind(scored.get("round", "E")),
            unit=str(data.get("unit", "tai")),
        )
    if kind == "draw":
        return Draw()
    if kind == "payout":
        return Payout(
            player=int(data["player"]),
            event=str(data["event"]),
            at_start=bool(data["at_start"]),
            payments=parse_amounts(data["payments"]),
            label=str(data.get("label", "")),
            notes=tuple(str(note) for note in data.get("notes", ())),
        )
    raise ValueError(f"unknown stored outcome kind {kind!r}")


@dataclass(frozen=True)
class Correction:
    """A void (`replacement` None) or an amendment of the outcome recorded as event `target`."""

    target: int
    replacement: Outcome | None
    reason: str
    by: str = ""

    @property
    def kind(self) -> str:
        return "void" if self.replacement is None else "amend"


@dataclass(frozen=True)
class Event:
    """One entry of the record: its number on the table (1, 2, ...), when, and what."""

    seq: int
    at: datetime
    body: Outcome | Correction
    key: str | None = None

    @property
    def kind(self) -> str:
        return self.body.kind


# ---------------------------------------------------------------------------------------------
# What a player enters


@dataclass(frozen=True)
class WinnerInput:
    """One winner: agreed tai (quick entry) or a scoring request (full hand), not both."""

    name: str
    tai: int | None = None
    hand: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class WinInput:
    winners: tuple[WinnerInput, ...]
    discarder: str | None = None
    """The player who discarded the winning tile; None for a self-draw."""
    liable: str | None = None
    kind: ClassVar[str] = "win"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winners": [
                {"name": w.name.strip().casefold(), "tai": w.tai, "hand": w.hand}
                for w in self.winners
            ],
            "discarder": _folded(self.discarder),
            "liable": _folded(self.liable),
        }


@dataclass(frozen=True)
class DrawInput:
    kind: ClassVar[str] = "draw"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class PayoutInput:
    player: str
    event: str
    at_start: bool = False
    kind: ClassVar[str] = "payout"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player.strip().casefold(),
            "event": self.event.strip().lower().replace("-", "_").replace(" ", "_"),
            "at_start": self.at_start,
        }


Entry = WinInput | DrawInput | PayoutInput


def _folded(name: str | None) -> str | None:
    return None if name is None else name.strip().casefold()


def fingerprint(operation: Mapping[str, Any]) -> str:
    """A stable digest of what a write asked for, to tell a repeated key's payload apart."""
    text = json.dumps(operation, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------------------------------
# Scoring an entry against the state at its place in the record


def build_outcome(setup: TableSetup, state: TableState, entry: Entry) -> Outcome:
    """The outcome an entry records at a place whose state is `state`: scored by the engine or
    settled by the profile, refused (`CompanionError`) when it is not a payable entry."""
    if isinstance(entry, DrawInput):
        return Draw()
    if isinstance(entry, PayoutInput):
        return build_payout(setup, state, entry)
    return build_win(setup, state, entry)


def build_win(setup: TableSetup, state: TableState, entry: WinInput) -> Win:
    profile = setup.engine_profile
    options = setup.engine_options
    if not entry.winners:
        raise LedgerError("name the winner")
    winners = [setup.player(winner.name) for winner in entry.winners]
    if len(set(winners)) != len(winners):
        raise LedgerError("each winner can be named only once")
    discarder = None if entry.discarder is None else setup.player(entry.discarder)
    liable = None if entry.liable is None else setup.player(entry.liable)
    if len(winners) > 1:
        if not profile.several_winners:
            raise LedgerError(f"the {profile.id} profile has one winner per hand")
        if discarder is None:
            raise LedgerError("several winners share one discard: name the discarder (--from)")
    if discarder is not None and discarder in winners:
        raise LedgerError(f"{setup.players[discarder]} cannot win on their own discard")
    parts = []
    for player, winner in zip(winners, entry.winners, strict=True):
        context = WinContext(
            win=WinType.SELF_DRAW if discarder is None else WinType.DISCARD,
            seat=state.seat_wind(player),
            round=state.round,
            discarder=None if discarder is None else state.seat_wind(discarder),
            dealer=Wind.EAST,
            dealer_streak=state.streak,
            liable=None if liable is None else state.seat_wind(liable),
        )
        name = setup.players[player]
        if (winner.tai is None) == (winner.hand is None):
            raise LedgerError(f"give {name}'s agreed tai or the winning hand, one of the two")
        if winner.tai is not None:
            parts.append(_quick_win(profile, options, state, player, winner.tai, context))
        else:
            assert winner.hand is not None
            parts.append(_hand_win(setup, state, player, winner.hand, context))
    requests = [part.request for part in parts if part.request is not None]
    try:
        check_one_discard(requests)
    except NotAWinError as refusal:
        raise NotPayableWinError(refusal.message) from None
    return Win(
        tuple(parts), discarder, liable, state.dealer, state.streak, state.round, profile.unit
    )


def allowed_tai(profile: Profile, options: Options) -> tuple[int | None, frozenset[int]]:
    """The most tai an ordinary hand settles at (None: no cap) and the values of limit hands."""
    cap = profile.cap_of(options) if profile.cap is not None else None
    limits = frozenset(
        options.tai_overrides.get(pattern.id, pattern.tai)
        for pattern in profile.patterns_for(options)
        if pattern.limit
    )
    return cap, limits


def quick_payments(profile: Profile, options: Options, tai: int, context: WinContext) -> Payments:
    """The settlement of agreed tai: the profile's own rules, refusing what the engine would."""
    unit = profile.unit
    if tai < 0:
        raise LedgerError(f"{unit} cannot be negative")
    cap, limits = allowed_tai(profile, options)
    if cap is not None and tai > cap and tai not in limits:
        above = sorted(limit for limit in limits if limit > cap)
        beyond = f" or a limit hand's {', '.join(map(str, above))}" if above else ""
        raise LedgerError(f"a {profile.id} hand settles at 0 to {cap} {unit}{beyond}, not {tai}")
    profile.check_context(context, options)
    if tai < options.min_tai:
        raise NotPayableWinError(
            f"{tai} {unit} is under the table's minimum of {options.min_tai}: a hand under the "
            "minimum pays nothing and is not recorded as a win"
        )
    return profile.settle(tai, context, options)


def _quick_win(
    profile: Profile,
    options: Options,
    state: TableState,
    player: int,
    tai: int,
    context: WinContext,
) -> WinnerScore:
    payments = quick_payments(profile, options, tai, context)
    return WinnerScore(player, tai, state.amounts(payments), profile.dealer_tai(context))


def hand_request(setup: TableSetup, hand: Mapping[str, Any], context: WinContext) -> dict[str, Any]:
    """The scoring request of a full-hand entry: the file's tiles and events, with everything
    the table knows (profile, seats, round, dealer, streak, options, liable) filled in."""
    if not isinstance(hand, Mapping):
        raise InvalidRequestError("a hand must be a JSON object: a scoring request")
    unknown = sorted(str(key) for key in hand if key not in REQUEST_FIELDS)
    if unknown:
        raise InvalidRequestError(f"unknown field {', '.join(map(repr, unknown))} in the hand")
    request = dict(hand)
    request.update(
        profile=setup.profile,
        win=context.win.value,
        seat=context.seat.value,
        round=context.round.value,
        dealer=context.dealer.value,
        dealer_streak=context.dealer_streak,
        options=dict(setup.options),
    )
    for name, wind in (("discarder", context.discarder), ("liable", context.liable)):
        if wind is None:
            request.pop(name, None)
        else:
            request[name] = wind.value
    return request


def _hand_win(
    setup: TableSetup,
    state: TableState,
    player: int,
    hand: Mapping[str, Any],
    context: WinContext,
) -> WinnerScore:
    request = hand_request(setup, hand, context)
    result = score(request)
    name = setup.players[player]
    if not result.valid:
        raise NotPayableWinError(f"{name}'s hand is not a win: {result.error}")
    if not result.meets_minimum:
        raise NotPayableWinError(
            f"{name}'s hand is {result.tai} {result.unit}, under the table's minimum: a hand "
            "under the minimum pays nothing and is not recorded as a win"
        )
    return WinnerScore(
        player=player,
        tai=result.tai,
        payments=state.amounts(result.payments),
        dealer_tai=result.dealer_tai,
        request=request,
        patterns=tuple((pattern.name, pattern.tai) for pattern in result.patterns),
        notes=result.notes,
    )


def build_payout(setup: TableSetup, state: TableState, entry: PayoutInput) -> Payout:
    options = payout_options(setup.profile, setup.options)
    player = setup.player(entry.player)
    result = explain_payout(options, entry.event, state.seat_wind(player), entry.at_start)
    return Payout(
        player=player,
        event=result.event.value,
        at_start=entry.at_start,
        payments=state.amounts(result.payments),
        label=result.event.label,
        notes=result.notes,
    )


# ---------------------------------------------------------------------------------------------
# Replay


def advance(state: TableState, outcome: Outcome) -> TableState:
    """The state after one outcome. The dealer keeps the deal on a drawn hand and on a win that
    includes the dealer (the streak grows); any other win passes the deal to the next player
    and resets the streak. Passing from the fourth player back to the first advances the
    round wind. Instant payouts change only the totals."""
    totals = add(state.totals, outcome.payments)
    if isinstance(outcome, Payout):
        return replace(state, totals=totals)
    hands = state.hands + 1
    if isinstance(outcome, Draw):
        return replace(state, totals=totals, hands=hands)
    if state.dealer in {winner.player for winner in outcome.winners}:
        return replace(state, totals=totals, hands=hands, streak=state.streak + 1)
    return replace(state, totals=totals, hands=hands, passes=state.passes + 1, streak=0)


@dataclass(frozen=True)
class HistoryEntry:
    """One event of the record as the corrected record reads it."""

    event: Event
    status: str
    """`recorded`, `voided` or `amended` for an outcome; `void` or `amend` for a correction."""
    effective: Outcome | None
    """What counts at this place: the outcome, its amendment, or nothing."""
    hand: int | None
    """The hand number of a win or drawn hand that counts (instant payouts: the hand they
    happened in)."""
    before: TableState
    after: TableState
    corrected_by: int | None = None
    notes: tuple[str, ...] = ()
    version: int = 0
    """How many corrections this outcome has had: a correction names the version it corrects
    (`expect`), so two people correcting one event at once cannot both win silently."""

    @property
    def amounts(self) -> Amounts:
        return ZERO if self.effective is None else self.effective.payments


@dataclass(frozen=True)
class Replay:
    setup: TableSetup
    state: TableState
    entries: tuple[HistoryEntry, ...]

    def entry(self, seq: int) -> HistoryEntry:
        if 1 <= seq <= len(self.entries) and self.entries[seq - 1].event.seq == seq:
            return self.entries[seq - 1]  # events run 1..n: the usual case, without a search
        for entry in self.entries:
            if entry.event.seq == seq:
                return entry
        raise MissingEventError(f"this table has no event {seq}")


def replay(setup: TableSetup, events: Sequence[Event]) -> Replay:
    """Replay the record in event order, each outcome as its latest correction says."""
    latest: dict[int, Event] = {}
    versions: dict[int, int] = {}
    for event in events:
        if isinstance(event.body, Correction):
            latest[event.body.target] = event
            versions[event.body.target] = versions.get(event.body.target, 0) + 1
    state = initial_state(setup)
    entries: list[HistoryEntry] = []
    for event in events:
        entry = _history_entry(setup, state, event, latest.get(event.seq))
        if event.seq in versions:
            entry = replace(entry, version=versions[event.seq])
        entries.append(entry)
        state = entry.after
    return Replay(setup, state, tuple(entries))


def extend(replayed: Replay, event: Event) -> Replay:
    """`replayed` with one more outcome appended: the same as replaying the whole record, but
    without going over it again. A correction changes earlier entries, so it needs `replay`."""
    if isinstance(event.body, Correction):
        raise ValueError("a correction is replayed with the whole record")
    entry = _history_entry(replayed.setup, replayed.state, event, None)
    return Replay(replayed.setup, entry.after, (*replayed.entries, entry))


def _history_entry(
    setup: TableSetup, state: TableState, event: Event, correction: Event | None
) -> HistoryEntry:
    """How one event reads at its place in the record, given its latest correction."""
    body = event.body
    if isinstance(body, Correction):
        return HistoryEntry(event, body.kind, None, None, state, state)
    effective: Outcome | None = body
    status = "recorded"
    if correction is not None:
        assert isinstance(correction.body, Correction)
        effective = correction.body.replacement
        status = "voided" if effective is None else "amended"
    after = state
    notes: tuple[str, ...] = ()
    hand: int | None = None
    if effective is not None:
        after = advance(state, effective)
        hand = after.hands if effective.is_hand else state.next_hand
        if isinstance(effective, Win):
            notes = _stale_notes(setup, state, effective)
    return HistoryEntry(
        event,
        status,
        effective,
        hand,
        state,
        after,
        None if correction is None else correction.seq,
        notes,
    )


def _stale_notes(setup: TableSetup, state: TableState, win: Win) -> tuple[str, ...]:
    """A note when a correction earlier in the record changed the dealer, streak or round this
    win was scored with, and that changes what it pays: its stored payments stand until it is
    amended."""
    if (win.dealer, win.streak, win.round) == (state.dealer, state.streak, state.round):
        return ()
    try:
        again = _resettle(setup, state, win)
    except CompanionError:
        again = None
    if again == win.payments:
        return ()  # the same money either way: nothing to say
    players = setup.players
    return (
        f"Scored with {players[win.dealer]} dealing ({win.round.english} round, streak "
        f"{win.streak}); the corrected record has {players[state.dealer]} dealing "
        f"({state.round.english} round, streak {state.streak}). Amend this hand to change what "
        "it pays.",
    )


def _resettle(setup: TableSetup, state: TableState, win: Win) -> Amounts:
    """What `win` would pay if scored at `state` (agreed tai settled again, a whole hand
    scored again)."""
    entry = WinInput(
        tuple(
            WinnerInput(setup.players[w.player], tai=w.tai)
            if w.request is None
            else WinnerInput(setup.players[w.player], hand=w.request)
            for w in win.winners
        ),
        None if win.discarder is None else setup.players[win.discarder],
        None if win.liable is None else setup.players[win.liable],
    )
    return build_win(setup, state, entry).payments


def state_at(replayed: Replay, seq: int) -> TableState:
    """The state just before the outcome recorded as event `seq` (for amending it)."""
    return replayed.entry(seq).before


def correction_target(replayed: Replay, seq: int, expect: int | None = None) -> HistoryEntry:
    """The outcome event `seq` to void or amend; corrections themselves are not corrected.

    `expect`: the version of the event the writer saw (`HistoryEntry.version`); when another
    correction came first, the write is refused (`StaleWriteError`) instead of silently
    replacing it. An event takes at most `MAX_CORRECTIONS` corrections."""
    entry = replayed.entry(seq)
    body = entry.event.body
    if isinstance(body, Correction):
        raise UnknownEventError(
            f"event {seq} is a correction ({body.kind} of event {body.target}): "
            f"void or amend event {body.target} itself"
        )
    if expect is not None and expect != entry.version:
        raise StaleWriteError(
            f"event {seq} is at version {entry.version}, not {expect}: it was corrected "
            "meanwhile; see the history before correcting it again"
        )
    if entry.version >= MAX_CORRECTIONS:
        raise LimitError(
            f"an event can be corrected at most {MAX_CORRECTIONS} times: event {seq} has been"
        )
    return entry


# ---------------------------------------------------------------------------------------------
# Settle-up


@dataclass(frozen=True)
class Transfer:
    payer: int
    payee: int
    amount: Fraction


def settle_up(totals: Sequence[Fraction]) -> list[Transfer]:
    """The fewest transfers that bring every total to zero.

    With n players owed or owing, the fewest transfers are n minus the largest number of groups
    the players split into with each group summing to zero; inside a group of k, paying the
    largest debt to the largest credit settles it in k - 1 transfers. The split is searched
    exactly (a table has four players)."""
    if sum(totals, Fraction(0)) != 0:
        raise LedgerError("the totals do not sum to zero: the record is inconsistent")
    open_players = [index for index, total in enumerate(totals) if total != 0]
    best: list[list[int]] = []
    for partition in _partitions(open_players):
        if len(partition) > len(best) and all(
            sum((totals[i] for i in block), Fraction(0)) == 0 for block in partition
        ):
            best = partition
    transfers: list[Transfer] = []
    for block in best:
        transfers.extend(_settle_block({index: totals[index] for index in block}))
    return sorted(transfers, key=lambda t: (t.payer, t.payee))


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def _settle_block(balance: dict[int, Fraction]) -> list[Transfer]:
    transfers: list[Transfer] = []
    while any(balance.values()):
        payer = min(balance, key=lambda i: (balance[i], i))
        payee = max(balance, key=lambda i: (balance[i], -i))
        amount = min(-balance[payer], balance[payee])
        transfers.append(Transfer(payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
    return transfers


def transfer_text(players: Sequence[str], transfer: Transfer) -> str:
    return (
        f"{players[transfer.payer]} pays {players[transfer.payee]} {format_amount(transfer.amount)}"
    )


# ---------------------------------------------------------------------------------------------
# Describing events


def outcome_text(players: Sequence[str], outcome: Outcome) -> str:
    """One line for a person: "Ann wins 3 tai from Ben", "Drawn hand", ..."""
    if isinstance(outcome, Draw):
        return "Drawn hand"
    if isinstance(outcome, Payout):
        start = " held at the start" if outcome.at_start else ""
        return f"Instant payout: {players[outcome.player]}, {outcome.label or outcome.event}{start}"
    parts = []
    for winner in outcome.winners:
        how = "hand" if winner.request is not None else "agreed"
        dealer = f" + {winner.dealer_tai} dealer tai" if winner.dealer_tai else ""
        parts.append(f"{players[winner.player]} wins {winner.tai} {outcome.unit}{dealer} ({how})")
    text = " and ".join(parts)
    if outcome.discarder is None:
        text += ", self-drawn"
    else:
        text += f" on {players[outcome.discarder]}'s discard"
    if outcome.liable is not None:
        text += f"; {players[outcome.liable]} pays for all"
    return text


def winner_names(players: Sequence[str], outcome: Outcome | None) -> str:
    if isinstance(outcome, Win):
        return ";".join(players[winner.player] for winner in outcome.winners)
    return ""
