"""A riichi game's setup and the outcomes of its hands, as values and as JSON (what a record
stores and a request sends): the players (four, or three where the options' `seats` are three:
`sanma`) and the table's options (`GameSetup`); a win, an
exhaustive or an abortive draw, a chombo, the dealer's stop (`Outcome`); what a winner's hand
is worth, given one way of four (`winner_value`). The game (`game.py`) moves from one state to
the next by them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.errors import InvalidRequestError
from companion.rules.riichi.engine import RiichiResult
from companion.rules.riichi.options import LIABLE_YAKUMAN, RiichiOptions, read_options
from companion.rules.riichi.points import LIMIT_BASE, RiichiValue, value_of

FU_VALUES = (20, 25, *range(30, 111, 10))
"""The fu a hand can have: 20 (pinfu self-draw), 25 (seven pairs), then tens up to 110."""
MAX_HAN = 100
MAX_YAKUMAN = 10
MAX_PLAYER_NAME = 40
LIMITS = ("mangan", "haneman", "baiman", "sanbaiman", "kazoe_yakuman", "yakuman")
"""The limit names a win may be given as, smallest first."""


class GameError(InvalidRequestError):
    """An outcome that cannot happen at this point of the game (or in this table's rules)."""


class GameOverError(GameError):
    """An outcome recorded after the game ended."""


_COUNT = {3: "three", 4: "four"}


# ---------------------------------------------------------------------------------------------
# Setup


@dataclass(frozen=True)
class GameSetup:
    """The players, East, South, West (and North) at the start, and the table's options, whose
    `seats` say how many play (`RiichiOptions.seats`: four; `sanma`'s three)."""

    players: tuple[str, ...]
    options: RiichiOptions

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | RiichiOptions | None = None
    ) -> GameSetup:
        """A checked setup: a different name for each seat, and options read as a request's (a
        preset and the fields set on their own), or given read (a variant's: `sanma`'s)."""
        rules = options if isinstance(options, RiichiOptions) else read_options(options or {})
        seats = len(rules.seats)
        names = tuple(str(name).strip() for name in players)
        if len(names) != seats:
            *first, last = (wind.english for wind in rules.seats)
            winds = f"{', '.join(first)} and {last}"
            raise InvalidRequestError(
                f"players: a game has {_COUNT[seats]} players, {winds} at the start; "
                f"got {len(names)}"
            )
        for name in names:
            if not name or len(name) > MAX_PLAYER_NAME:
                raise InvalidRequestError(
                    f"players: a name has 1 to {MAX_PLAYER_NAME} characters: {name[:20]!r}"
                )
        if len({name.casefold() for name in names}) != seats:
            raise InvalidRequestError(f"players: each needs a different name: {', '.join(names)}")
        return cls(names, rules)

    @property
    def seats(self) -> int:
        """How many play: four, or three (`sanma`)."""
        return len(self.players)

    def name(self, player: int) -> str:
        return self.players[player]

    def player(self, name: str) -> int:
        """The index of the player called `name` (case and spaces around it ignored)."""
        key = name.strip().casefold()
        for index, player in enumerate(self.players):
            if player.casefold() == key:
                return index
        raise InvalidRequestError(
            f"no player named {name.strip()!r} in this game: {', '.join(self.players)}"
        )


# ---------------------------------------------------------------------------------------------
# Outcomes


@dataclass(frozen=True)
class Winner:
    """One winner of a hand and what the hand is worth, given one way of four: `han` (with `fu`,
    which may be left out from 5 han up), `yakuman` (how many), `limit` (a name of `LIMITS`),
    or `value` (as the engine worked it out, `value_of`).

    `liable`: the player whose discard let a daisangen or daisuushii be completed; it pays for
    `liable_yakuman` of the hand's yakuman (all of them when None)."""

    player: int
    han: int = 0
    fu: int | None = None
    yakuman: int = 0
    limit: str | None = None
    value: RiichiValue | None = None
    liable: int | None = None
    liable_yakuman: int | None = None

    @classmethod
    def from_result(
        cls,
        player: int,
        result: RiichiResult,
        liable: int | None = None,
        liable_yakuman: frozenset[str] = LIABLE_YAKUMAN,
    ) -> Winner:
        """A winner whose hand `score_riichi` scored (under the table's options): its han, fu
        and yakuman, and, with `liable`, the yakuman of `liable_yakuman` it holds (the table's
        `RiichiOptions.liable_yakuman`: the daisangen and daisuushii, and the suukantsu where
        the table plays its liability)."""
        liable_count = sum(score.yakuman for score in result.patterns if score.id in liable_yakuman)
        if result.yakuman:
            return cls(player, yakuman=result.yakuman, liable=liable, liable_yakuman=liable_count)
        return cls(player, han=result.han, fu=result.fu, liable=liable)


@dataclass(frozen=True)
class Win:
    """A hand won: by self-draw (`discarder` None, one winner) or on a discard (one to three
    winners). `riichi`: the players who declared riichi in this hand (each puts 1,000 down
    before the hand is paid, so the winners' deposits include them)."""

    winners: tuple[Winner, ...]
    discarder: int | None = None
    riichi: tuple[int, ...] = ()


@dataclass(frozen=True)
class ExhaustiveDraw:
    """The wall ran out. `tenpai`: the players ready at the end (every riichi declarer among
    them); `nagashi`: the players paid a nagashi mangan, where the table plays it."""

    tenpai: tuple[int, ...] = ()
    riichi: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()


class AbortiveKind(Enum):
    """Why a hand was abandoned."""

    NINE_TERMINALS = "nine_terminals"
    """Kyuushu kyuuhai: nine kinds of terminals and honors in a first hand."""
    FOUR_WINDS = "four_winds"
    """Suufon renda: the same wind discarded by all four on the first go-round."""
    FOUR_KONGS = "four_kongs"
    """Suukan sanra: four kongs by more than one player."""
    FOUR_RIICHI = "four_riichi"
    """Suucha riichi: all four players declared riichi."""
    TRIPLE_RON = "triple_ron"
    """Sanchahou: three players claim one discard (`triple_ron_draws`)."""


@dataclass(frozen=True)
class AbortiveDraw:
    """A hand abandoned (where the table plays abortive draws): the deal stays, a honba is
    added, the deposits stay on the table."""

    kind: AbortiveKind
    riichi: tuple[int, ...] = ()


@dataclass(frozen=True)
class Chombo:
    """A player's foul. The hand is void and dealt again: same dealer, same honba, any riichi
    of it taken back (so it has no `riichi`)."""

    player: int


@dataclass(frozen=True)
class Stop:
    """The dealer of the last hand, leading after keeping the deal by a win or tenpai, stops
    the game (`all_last_stop`)."""


Outcome = Win | ExhaustiveDraw | AbortiveDraw | Chombo | Stop


# ---------------------------------------------------------------------------------------------
# What a winner's hand is worth


def winner_value(winner: Winner, options: RiichiOptions, name: str, self_draw: bool) -> RiichiValue:
    """What a winner's hand is worth at a table of these options, from whichever of its four
    forms it was given in (`name`: the winner's, for the refusals)."""
    forms = [
        form
        for form, given in (
            ("han", winner.han or winner.fu is not None),
            ("yakuman", winner.yakuman),
            ("limit", winner.limit is not None),
            ("value", winner.value is not None),
        )
        if given
    ]
    if len(forms) != 1:
        said = " and ".join(forms) if forms else "nothing"
        raise GameError(
            f"winner {name}: give the hand's han (and fu), its yakuman, a limit or its value, "
            f"one of them; got {said}"
        )
    most = MAX_YAKUMAN if options.multiple_yakuman else (2 if options.double_yakuman else 1)
    if winner.value is not None:
        value = winner.value
    elif winner.limit is not None:
        if winner.limit not in LIMITS:
            raise GameError(f"winner {name}: limit {winner.limit!r} is none of {', '.join(LIMITS)}")
        if winner.limit == "kazoe_yakuman" and options.kazoe != "yakuman":
            raise GameError(
                f"winner {name}: this table counts 13 han as a sanbaiman (option kazoe), "
                "never a counted yakuman"
            )
        if winner.limit == "yakuman":
            return RiichiValue(LIMIT_BASE["yakuman"], 1, 0, 0, "yakuman")
        return RiichiValue(LIMIT_BASE[winner.limit], 0, 0, 0, winner.limit)
    elif winner.yakuman:
        if isinstance(winner.yakuman, bool) or not 1 <= winner.yakuman <= most:
            raise GameError(_too_many_yakuman(name, most))
        return value_of(0, 0, winner.yakuman, options)
    else:
        han, fu = winner.han, winner.fu
        if isinstance(han, bool) or not isinstance(han, int) or not 1 <= han <= MAX_HAN:
            raise GameError(f"winner {name}: han must be a whole number from 1 to {MAX_HAN}")
        if fu is None:
            if han < 5:
                raise GameError(f"winner {name}: a hand of {han} han needs its fu")
            fu = 0  # 5 han and more are a limit whatever their fu
        elif fu not in FU_VALUES:
            raise GameError(f"winner {name}: {fu} fu is no hand's: 20, 25, or a ten from 30 to 110")
        elif fu == 20 and not self_draw:
            raise GameError(f"winner {name}: 20 fu is a pinfu self-draw, never a win on a discard")
        elif fu in (20, 25) and han < 2:
            raise GameError(
                f"winner {name}: {fu} fu comes with at least 2 han "
                f"({'pinfu and menzen tsumo' if fu == 20 else 'seven pairs'})"
            )
        value = value_of(han, fu, 0, options)
    if value.yakuman > most:
        raise GameError(_too_many_yakuman(name, most))
    return value


def _too_many_yakuman(name: str, most: int) -> str:
    return (
        f"winner {name}: a hand counts 1 yakuman or more, at most {most} at this table "
        "(options multiple_yakuman, double_yakuman)"
    )


# ---------------------------------------------------------------------------------------------
# Outcomes as JSON (what a record stores and a request sends)

_FIELDS = {
    "win": ("winners", "discarder", "riichi"),
    "exhaustive_draw": ("tenpai", "riichi", "nagashi"),
    "abortive_draw": ("abortive", "riichi"),
    "chombo": ("player",),
    "stop": (),
}
"""Each kind of outcome and the fields it takes besides `kind`."""
_WINNER_FIELDS = ("player", "han", "fu", "yakuman", "limit", "liable", "liable_yakuman")
_KIND_OF: dict[type[Any], str] = {
    Win: "win",
    ExhaustiveDraw: "exhaustive_draw",
    AbortiveDraw: "abortive_draw",
    Chombo: "chombo",
    Stop: "stop",
}


def _json_player(setup: GameSetup, value: Any, field: str) -> int:
    """A player named by their name or their index (0 for the one who started East)."""
    if isinstance(value, str):
        try:
            return setup.player(value)
        except InvalidRequestError as error:
            raise GameError(f"{field}: {error.message}") from None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < setup.seats:
        raise GameError(
            f"{field}: a player is a name or 0 to {setup.seats - 1} (the seat at the start)"
        )
    return value


def _json_players(setup: GameSetup, value: Any, field: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise GameError(f"{field}: a list of players")
    return tuple(_json_player(setup, item, field) for item in value)


def _json_count(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError(f"{field}: a whole number")
    return value


def _check_fields(data: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    for name in data:
        if name not in allowed:
            takes = ", ".join(allowed) if allowed else "nothing more"
            raise GameError(f'{what}: no field "{name}" (it takes {takes})')


def read_outcome(setup: GameSetup, data: Mapping[str, Any]) -> Outcome:
    """An outcome from its JSON: `kind` and the fields of that kind (`_FIELDS`), players by
    name or index. A field of another kind (a tenpai list on a win, winners on a draw) is
    refused, naming it."""
    if not isinstance(data, Mapping):
        raise GameError("an outcome is an object with its kind")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise GameError(f"kind: {kind!r} is none of {', '.join(_FIELDS)}")
    _check_fields({name: None for name in data if name != "kind"}, _FIELDS[kind], kind)
    riichi = _json_players(setup, data.get("riichi", ()), "riichi")
    if kind == "win":
        winners = data.get("winners")
        if not isinstance(winners, list | tuple) or not winners:
            raise GameError("winners: a win has a list of one to three winners")
        discarder = data.get("discarder")
        return Win(
            tuple(_read_winner(setup, item) for item in winners),
            None if discarder is None else _json_player(setup, discarder, "discarder"),
            riichi,
        )
    if kind == "exhaustive_draw":
        return ExhaustiveDraw(
            _json_players(setup, data.get("tenpai", ()), "tenpai"),
            riichi,
            _json_players(setup, data.get("nagashi", ()), "nagashi"),
        )
    if kind == "abortive_draw":
        try:
            abortive = AbortiveKind(data.get("abortive"))
        except ValueError:
            known = ", ".join(item.value for item in AbortiveKind)
            raise GameError(f"abortive: {data.get('abortive')!r} is none of {known}") from None
        return AbortiveDraw(abortive, riichi)
    if kind == "chombo":
        return Chombo(_json_player(setup, data.get("player"), "player"))
    return Stop()


def _read_winner(setup: GameSetup, data: Any) -> Winner:
    if not isinstance(data, Mapping):
        raise GameError("winners: each winner is an object with its player and hand's value")
    _check_fields(data, _WINNER_FIELDS, "winner")
    liable = data.get("liable")
    limit = data.get("limit")
    if limit is not None and not isinstance(limit, str):
        raise GameError(f"limit: one of {', '.join(LIMITS)}")
    fu = data.get("fu")
    count = data.get("liable_yakuman")
    return Winner(
        _json_player(setup, data.get("player"), "winner"),
        han=_json_count(data.get("han", 0), "han"),
        fu=None if fu is None else _json_count(fu, "fu"),
        yakuman=_json_count(data.get("yakuman", 0), "yakuman"),
        limit=limit,
        liable=None if liable is None else _json_player(setup, liable, "liable"),
        liable_yakuman=None if count is None else _json_count(count, "liable_yakuman"),
    )


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """An outcome as `read_outcome` reads it back, players by index (a winner given as an
    engine `value` is stored by its han and fu, or its yakuman)."""
    kind = _KIND_OF[type(outcome)]
    data: dict[str, Any] = {"kind": kind}
    if isinstance(outcome, Win):
        data["winners"] = [_winner_json(winner) for winner in outcome.winners]
        if outcome.discarder is not None:
            data["discarder"] = outcome.discarder
    elif isinstance(outcome, ExhaustiveDraw):
        data["tenpai"] = list(outcome.tenpai)
        if outcome.nagashi:
            data["nagashi"] = list(outcome.nagashi)
    elif isinstance(outcome, AbortiveDraw):
        data["abortive"] = outcome.kind.value
    elif isinstance(outcome, Chombo):
        data["player"] = outcome.player
    if isinstance(outcome, Win | ExhaustiveDraw | AbortiveDraw) and outcome.riichi:
        data["riichi"] = list(outcome.riichi)
    return data


def _winner_json(winner: Winner) -> dict[str, Any]:
    data: dict[str, Any] = {"player": winner.player}
    value = winner.value
    if value is not None:
        if value.yakuman:
            data["yakuman"] = value.yakuman
        elif value.han:
            data["han"] = value.han
            if value.fu:
                data["fu"] = value.fu
        else:
            data["limit"] = value.limit
    else:
        for name in ("han", "fu", "yakuman", "limit"):
            found = getattr(winner, name)
            if found:
                data[name] = found
    if winner.liable is not None:
        data["liable"] = winner.liable
    if winner.liable_yakuman is not None:
        data["liable_yakuman"] = winner.liable_yakuman
    return data
