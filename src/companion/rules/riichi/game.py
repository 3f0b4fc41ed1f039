"""A riichi game over a whole hanchan or tonpuusen: the points table, replayed from the outcomes
of its hands (docs/rules-riichi.md, *The table*).

A game is set up with its players, East, South, West and North at the start (East, South and
West at a table of three, `sanma`: the options' `seats` say how many play), and the table's
options (`RiichiOptions`: its preset's length, start and return points, uma, draws, chombo,
end and ties). Each outcome (a win, an exhaustive or an abortive draw, a chombo, the dealer's
stop at all-last) moves the game from one state to the next; `replay` walks a whole record and
`GameState.results` gives each player's final result once the game is over. The setup and the
outcomes, as values and as JSON, are `outcomes.py`'s. Players are named by their index in the
setup (0 for the player who started East); seat winds change with the deal and are worked out
here. Everything impossible is refused with a `GameError` naming the player and the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from companion.errors import InvalidRequestError
from companion.rules.riichi.options import RiichiOptions
from companion.rules.riichi.outcomes import (
    AbortiveDraw,
    AbortiveKind,
    Chombo,
    ExhaustiveDraw,
    GameError,
    GameOverError,
    GameSetup,
    Outcome,
    Stop,
    Win,
    Winner,
    winner_value,
)
from companion.rules.riichi.points import LIMIT_BASE, RiichiValue, settle
from companion.tiles import WINDS, Wind

RIICHI_STICK = 1_000
"""What a riichi declaration puts on the table."""
MANGAN = RiichiValue(LIMIT_BASE["mangan"], 0, 5, 0, "mangan")


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class HandLabel:
    """Which hand is played: the round wind, its hand number (1 to 4, the dealer's turn) and
    the honba counters."""

    round: Wind
    number: int
    honba: int

    @property
    def label(self) -> str:
        """`East 3, 2 honba`."""
        return f"{self.round.english} {self.number}, {self.honba} honba"


class GameEnd(Enum):
    """Why the game ended."""

    LAST_HAND = "last_hand"
    """The deal passed on from the last hand."""
    BUST = "bust"
    """A player went below zero (`bust_ends`)."""
    STOP = "stop"
    """The leading dealer stopped at all-last (`all_last_stop`)."""
    RETURN_REACHED = "return_reached"
    """In the extension, a player reached the return points (`extension`)."""
    EXTENSION_OVER = "extension_over"
    """The extension's round was played out."""


@dataclass(frozen=True)
class Standing:
    """A player's place and result (in thousands of points) at the end, exact.

    `points` hold the leftover deposits first place took; `result` is
    (points - return) / 1000 + uma + oka - penalty."""

    player: int
    name: str
    place: int
    """1 to 4; players sharing places (`ties` "share") hold the best of them."""
    points: Fraction
    uma: Fraction
    oka: Fraction
    penalty: Fraction
    result: Fraction

    @property
    def shown(self) -> str:
        """The result with one decimal, rounded half away from zero: `23.1`, `-6.9`."""
        return one_decimal(self.result)


def one_decimal(number: Fraction) -> str:
    tenths = abs(number) * 10
    whole = int(tenths)
    if tenths - whole >= Fraction(1, 2):
        whole += 1
    sign = "-" if number < 0 and whole else ""
    return f"{sign}{whole // 10}.{whole % 10}"


def points_text(points: Fraction | int) -> str:
    """Points with thousands separators: `31,300`; a share of leftover deposits keeps one
    decimal (`30,333.3`)."""
    exact = Fraction(points)
    if exact.denominator == 1:
        return f"{int(exact):,}"
    whole, tenth = divmod(int(one_decimal(exact).replace(".", "")), 10)
    return f"{whole:,}.{tenth}"


@dataclass(frozen=True)
class GameState:
    """The game after some outcomes: each player's points, the deposits on the table, the
    honba, how often the deal has passed, and whether (and why) the game is over."""

    setup: GameSetup
    points: tuple[int, ...]
    deposits: int = 0
    """Points on the table from riichi declarations, waiting for the next win."""
    honba: int = 0
    passes: int = 0
    """How many times the deal has passed: the dealer and the round follow from it."""
    hands: int = 0
    """Hands played (a chombo's is void, a stop is none)."""
    chombos: tuple[int, ...] = ()
    """Chombo penalties each player owes at the end (`chombo` "penalty"), one a player."""
    kept: bool = False
    """Whether the last hand's dealer kept the deal by a win or tenpai (a stop may follow)."""
    ended: GameEnd | None = None

    @property
    def options(self) -> RiichiOptions:
        return self.setup.options

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def seats(self) -> int:
        """How many play: four, or three (`sanma`)."""
        return self.setup.seats

    @property
    def dealer(self) -> int:
        return self.passes % self.seats

    @property
    def round(self) -> Wind:
        return WINDS[self.passes // self.seats % len(WINDS)]

    @property
    def in_extension(self) -> bool:
        """Whether the hand to play is past the last hand of the game's length."""
        return self.passes >= self.options.rounds * self.seats

    @property
    def all_last(self) -> bool:
        """Whether the hand to play is the last of the game's length (South 4, East 4; South 3
        at a table of three)."""
        return self.passes == self.options.rounds * self.seats - 1

    @property
    def hand(self) -> HandLabel | None:
        """The hand to play next; None once the game is over."""
        if self.ended is not None:
            return None
        return HandLabel(self.round, self.dealer + 1, self.honba)

    def seat_wind(self, player: int) -> Wind:
        """The dealer sits East, the others in turn after."""
        return WINDS[(player - self.dealer) % self.seats]

    def standings(self) -> tuple[Standing, ...]:
        """Each player's place and result were the game to end now, first place first."""
        return _standings(self)

    @property
    def results(self) -> tuple[Standing, ...]:
        """The final results, first place first; refused before the game is over."""
        if self.ended is None:
            hand = self.hand
            assert hand is not None
            raise GameError(f"the game is not over: {hand.label} is to play")
        return _standings(self)


def start(setup: GameSetup) -> GameState:
    """The game before its first hand: every player at the start points, East 1."""
    return GameState(setup, (setup.options.start_points,) * setup.seats, chombos=(0,) * setup.seats)


@dataclass(frozen=True)
class Step:
    """One outcome at its place: the state before and after, the hand it was played in, what
    it changed for each player (riichi and deposits included) and who was paid for a win."""

    outcome: Outcome
    before: GameState
    after: GameState
    hand: HandLabel | None
    changes: tuple[int, ...]
    winners: tuple[int, ...] = ()
    """The players paid for the hand (the first only with a head bump)."""
    calls: tuple[str, ...] = ()
    """Each paid winner's call, as players say it (`8000`, `2000-4000`, `4000 all`)."""


@dataclass(frozen=True)
class Game:
    setup: GameSetup
    steps: tuple[Step, ...]
    state: GameState


def replay(setup: GameSetup, outcomes: Sequence[Outcome]) -> Game:
    """The game after `outcomes` in order; the first impossible one is refused (`GameError`,
    its message says which hand)."""
    state = start(setup)
    steps: list[Step] = []
    for outcome in outcomes:
        found = advance(state, outcome)
        steps.append(found)
        state = found.after
    return Game(setup, tuple(steps), state)


def advance(state: GameState, outcome: Outcome) -> Step:
    """The state after one outcome."""
    if state.ended is not None:
        raise GameOverError(
            f"the game is over ({_END_TEXT[state.ended]}): no hand is played after it"
        )
    hand = state.hand
    if isinstance(outcome, Win):
        return _win(state, outcome)
    if isinstance(outcome, ExhaustiveDraw):
        return _exhaustive(state, outcome)
    if isinstance(outcome, AbortiveDraw):
        return _abortive(state, outcome)
    if isinstance(outcome, Chombo):
        return _chombo(state, outcome)
    if isinstance(outcome, Stop):
        _check_stop(state)
        after = replace(state, ended=GameEnd.STOP, kept=False)
        return Step(outcome, state, after, hand, (0,) * state.seats)
    raise InvalidRequestError(f"not an outcome of a riichi hand: {type(outcome).__name__}")


_END_TEXT = {
    GameEnd.LAST_HAND: "the last hand was played",
    GameEnd.BUST: "a player went below zero",
    GameEnd.STOP: "the dealer stopped at all-last",
    GameEnd.RETURN_REACHED: "a player reached the return points in the extension",
    GameEnd.EXTENSION_OVER: "the extension's round was played",
}


def end_text(state: GameState) -> str:
    """Why the game ended, in a few words ("the last hand was played"); "" while it goes on."""
    return "" if state.ended is None else _END_TEXT[state.ended]


# ---------------------------------------------------------------------------------------------
# Checks


def _check_player(state: GameState, player: object, field: str) -> int:
    seats = state.seats
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < seats:
        winds = ", ".join(wind.english for wind in state.options.seats)
        raise GameError(f"{field}: a player is 0 to {seats - 1} ({winds} at the start)")
    return player


def _check_players(state: GameState, players: Sequence[int], field: str) -> tuple[int, ...]:
    found = tuple(_check_player(state, player, field) for player in players)
    for index, player in enumerate(found):
        if player in found[:index]:
            raise GameError(f"{field}: {state.setup.name(player)} is named twice")
    return found


def _declare_riichi(state: GameState, riichi: Sequence[int], points: list[int]) -> int:
    """Take each declarer's stick; the deposits on the table after them."""
    declarers = _check_players(state, riichi, "riichi")
    for player in declarers:
        if state.points[player] < RIICHI_STICK:
            raise GameError(
                f"riichi: {state.setup.name(player)} has {state.points[player]:,} points and "
                f"cannot put {RIICHI_STICK:,} down to declare riichi"
            )
        points[player] -= RIICHI_STICK
    return state.deposits + RIICHI_STICK * len(declarers)


def _check_stop(state: GameState) -> None:
    options = state.options
    name = state.setup.name(state.dealer)
    if not options.all_last_stop:
        raise GameError("stop: this table plays every hand to the end (option all_last_stop)")
    if not state.all_last or not state.kept:
        raise GameError(
            "stop: only the dealer of the last hand may stop, right after keeping the deal "
            "by a win or tenpai"
        )
    dealer_points = state.points[state.dealer]
    if any(
        points >= dealer_points
        for player, points in enumerate(state.points)
        if player != state.dealer
    ):
        raise GameError(f"stop: {name}, the dealer, may stop only when leading alone")
    if options.extension and dealer_points < options.return_points:
        raise GameError(
            f"stop: {name} has {dealer_points:,} points, under the return points "
            f"({options.return_points:,}): the game goes on"
        )


# ---------------------------------------------------------------------------------------------
# Hands


def _deal(
    state: GameState,
    outcome: Outcome,
    points: list[int],
    deposits: int,
    keep: bool,
    kept: bool,
    honba: int,
    winners: tuple[int, ...] = (),
    calls: tuple[str, ...] = (),
) -> Step:
    """The step of a hand played: the deal kept or passed, and the end of the game checked."""
    options = state.options
    passes = state.passes + (0 if keep else 1)
    regular = options.rounds * state.seats
    reached = any(found >= options.return_points for found in points)
    ended: GameEnd | None = None
    if options.bust_ends and any(found < 0 for found in points):
        ended = GameEnd.BUST
    elif state.in_extension:
        if reached:
            ended = GameEnd.RETURN_REACHED
        elif passes >= regular + state.seats:
            ended = GameEnd.EXTENSION_OVER
    elif passes >= regular and (reached or not options.extension):
        ended = GameEnd.LAST_HAND
    after = GameState(
        state.setup,
        tuple(points),
        deposits,
        honba,
        passes,
        state.hands + 1,
        state.chombos,
        kept,
        ended,
    )
    changes = tuple(now - was for now, was in zip(points, state.points, strict=True))
    return Step(outcome, state, after, state.hand, changes, winners, calls)


def _win(state: GameState, win: Win) -> Step:
    options = state.options
    setup = state.setup
    if not win.winners:
        raise GameError("winners: a win needs a winner")
    players = _check_players(state, [winner.player for winner in win.winners], "winners")
    discarder = None if win.discarder is None else _check_player(state, win.discarder, "discarder")
    if discarder is None and len(players) > 1:
        raise GameError("winners: a self-drawn hand has one winner; several win on a discard")
    if discarder in players:
        assert discarder is not None
        raise GameError(f"discarder: {setup.name(discarder)} cannot win on their own discard")
    values = [
        winner_value(winner, options, setup.name(winner.player), discarder is None)
        for winner in win.winners
    ]
    ordered = sorted(
        zip(win.winners, values, strict=True),
        key=lambda entry: (entry[0].player - (discarder or 0)) % state.seats,
    )
    for winner, value in ordered:
        _check_liable(state, winner, value)
    points = list(state.points)
    deposits = _declare_riichi(state, win.riichi, points)
    if options.head_bump:
        ordered = ordered[:1]
    elif len(ordered) == 3 and options.abortive_draws and options.triple_ron_draws:
        return _deal(state, win, points, deposits, True, False, state.honba + 1)
    calls: list[str] = []
    for place, (winner, value) in enumerate(ordered):
        liable = winner.liable
        liable_base = 0
        if liable is not None:
            count = value.yakuman if winner.liable_yakuman is None else winner.liable_yakuman
            liable_base = min(LIMIT_BASE["yakuman"] * count, value.base)
        paid = settle(
            value,
            state.seat_wind(winner.player),
            None if discarder is None else state.seat_wind(discarder),
            state.honba if place == 0 else 0,
            0,
            options,
            None if liable is None else state.seat_wind(liable),
            liable_base,
        )
        for player in range(state.seats):
            points[player] += paid.payments[state.seat_wind(player)]
        calls.append(paid.call)
    points[ordered[0][0].player] += deposits
    winners = tuple(winner.player for winner, _ in ordered)
    dealer_won = state.dealer in winners
    return _deal(
        state,
        win,
        points,
        0,
        dealer_won,
        dealer_won,
        state.honba + 1 if dealer_won else 0,
        winners,
        tuple(calls),
    )


def _check_liable(state: GameState, winner: Winner, value: RiichiValue) -> None:
    """A liable player is another than the winner, for a hand of yakuman (a liable discarder
    simply pays the whole hand, as a single hand's settlement says)."""
    if winner.liable is None:
        if winner.liable_yakuman is not None:
            raise GameError(
                f"winner {state.setup.name(winner.player)}: liable_yakuman without a liable player"
            )
        return
    name = state.setup.name(winner.player)
    liable = _check_player(state, winner.liable, "liable")
    if liable == winner.player:
        raise GameError(f"liable: {name} cannot pay for their own hand")
    if not value.yakuman:
        raise GameError(
            f"liable: a player pays for {name}'s hand only for a daisangen or a daisuushii, "
            "a yakuman"
        )
    count = winner.liable_yakuman
    if count is not None and not 1 <= count <= value.yakuman:
        raise GameError(
            f"liable_yakuman: the liable player pays for 1 of {name}'s yakuman or more, at "
            f"most the {value.yakuman} the hand holds"
        )


def _exhaustive(state: GameState, draw: ExhaustiveDraw) -> Step:
    options = state.options
    setup = state.setup
    tenpai = _check_players(state, draw.tenpai, "tenpai")
    nagashi = _check_players(state, draw.nagashi, "nagashi")
    for player in _check_players(state, draw.riichi, "riichi"):
        if player not in tenpai:
            raise GameError(
                f"riichi: {setup.name(player)} declared riichi and is not tenpai at the draw: "
                "a riichi without a ready hand is a chombo; record it as one"
            )
    if nagashi and not options.nagashi_mangan:
        raise GameError("nagashi: this table plays no nagashi mangan (option nagashi_mangan)")
    points = list(state.points)
    deposits = _declare_riichi(state, draw.riichi, points)
    if nagashi:
        for player in nagashi:
            paid = settle(MANGAN, state.seat_wind(player), None, 0, 0, options)
            for other in range(state.seats):
                points[other] += paid.payments[state.seat_wind(other)]
    elif 0 < len(tenpai) < state.seats:
        gain = options.noten_payment // len(tenpai)
        loss = options.noten_payment // (state.seats - len(tenpai))
        for player in range(state.seats):
            points[player] += gain if player in tenpai else -loss
    dealer_tenpai = state.dealer in tenpai
    return _deal(state, draw, points, deposits, dealer_tenpai, dealer_tenpai, state.honba + 1)


def _abortive(state: GameState, draw: AbortiveDraw) -> Step:
    options = state.options
    if not options.abortive_draws:
        raise GameError("abortive draw: this table plays every hand out (option abortive_draws)")
    if not isinstance(draw.kind, AbortiveKind) or draw.kind.value not in options.abortive_kinds:
        played = options.abortive_kinds
        known = ", ".join(kind.value for kind in AbortiveKind if kind.value in played)
        raise GameError(f"abortive draw: the kind is one of {known}")
    if draw.kind is AbortiveKind.TRIPLE_RON and (options.head_bump or not options.triple_ron_draws):
        raise GameError(
            "abortive draw: three winners on one discard are no draw at this table "
            "(options triple_ron_draws, head_bump): record the win"
        )
    if draw.kind is AbortiveKind.FOUR_RIICHI and len(set(draw.riichi)) != state.seats:
        raise GameError("abortive draw: four riichi needs all four players in riichi")
    points = list(state.points)
    deposits = _declare_riichi(state, draw.riichi, points)
    return _deal(state, draw, points, deposits, True, False, state.honba + 1)


def _chombo(state: GameState, chombo: Chombo) -> Step:
    options = state.options
    player = _check_player(state, chombo.player, "chombo")
    points = list(state.points)
    chombos = state.chombos
    if options.chombo == "penalty":
        chombos = tuple(count + (index == player) for index, count in enumerate(chombos))
    else:
        paid = settle(MANGAN, state.seat_wind(player), None, 0, 0, options)
        for other in range(state.seats):
            points[other] -= paid.payments[state.seat_wind(other)]
    ended = GameEnd.BUST if options.bust_ends and any(found < 0 for found in points) else None
    after = replace(state, points=tuple(points), chombos=chombos, kept=False, ended=ended)
    changes = tuple(now - was for now, was in zip(points, state.points, strict=True))
    return Step(chombo, state, after, state.hand, changes)


# ---------------------------------------------------------------------------------------------
# Results


def _standings(state: GameState) -> tuple[Standing, ...]:
    options = state.options
    order = sorted(range(state.seats), key=lambda player: (-state.points[player], player))
    if options.ties == "seat":
        groups = [[player] for player in order]
    else:
        groups = []
        for player in order:
            if groups and state.points[groups[-1][0]] == state.points[player]:
                groups[-1].append(player)
            else:
                groups.append([player])
    bonus = [Fraction(item) for item in options.uma]
    oka = Fraction(options.oka, 1000)
    found: list[Standing] = []
    place = 0
    for index, group in enumerate(groups):
        share = len(group)
        uma = sum(bonus[place : place + share], Fraction(0)) / share
        group_oka = oka / share if place == 0 else Fraction(0)
        leftover = Fraction(state.deposits, share) if index == 0 else Fraction(0)
        for player in group:
            points = state.points[player] + leftover
            penalty = Fraction(options.chombo_penalty * state.chombos[player], 1000)
            result = (points - options.return_points) / 1000 + uma + group_oka - penalty
            found.append(
                Standing(
                    player,
                    state.setup.name(player),
                    place + 1,
                    points,
                    uma,
                    group_oka,
                    penalty,
                    result,
                )
            )
        place += share
    return tuple(found)
