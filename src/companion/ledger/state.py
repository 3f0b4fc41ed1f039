"""A table's setup and the state replayed from its record (dealer, seat winds, round wind,
dealer streak, totals, hands played), and the amounts they hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from companion.ledger.errors import LedgerError, LimitError, UnknownPlayerError
from companion.names import clean_name, name_key, same_name
from companion.rules import get_profile, table_profiles
from companion.rules.options import Options
from companion.rules.profile import AnyProfile
from companion.settlement import amount_json, format_amount
from companion.tiles import WINDS, Wind

if TYPE_CHECKING:
    from companion.rules.riichi.game import GameState
    from companion.rules.riichi.outcomes import GameSetup

SEATS = 4
"""The seats of a table, but for a profile whose `seats` are three (`sanma`)."""
TABLE_SIZES = (3, 4)
"""How many players a table seats: four, or three (`Profile.seats`)."""

MAX_PLAYER_NAME = 40
"""The longest player name, in characters."""
MAX_TABLE_NAME = 60
"""The longest table name, in characters."""
MAX_CORRECTION_TEXT = 200
"""The longest reason or `by` of a correction, in characters."""
MAX_CORRECTIONS = 10
"""How often one entry may be corrected (voided or amended)."""
MAX_ENTRIES = 20_000
"""How many entries one table may hold (corrections included)."""
MAX_PLANNED_HANDS = MAX_ENTRIES
"""The most hands a table may plan: it holds no more entries than that."""
MAX_PLANNED_ROUNDS = MAX_ENTRIES // 4
"""The most rounds a table may plan: a round is at least four hands."""

Amounts = tuple[Fraction, ...]
"""One amount per player, in seat order (players[0] first)."""

ZERO: Amounts = (Fraction(0),) * SEATS


def zero(seats: int) -> Amounts:
    """Nothing for each of `seats` players."""
    return ZERO if seats == SEATS else (Fraction(0),) * seats


# ---------------------------------------------------------------------------------------------
# Amounts


def amounts_text(amounts: Sequence[Fraction]) -> list[str]:
    """Exact amounts for storage: "6", "-3/2"."""
    return [str(amount) for amount in amounts]


def parse_amounts(values: Sequence[Any]) -> Amounts:
    if len(values) not in TABLE_SIZES:
        raise ValueError("a stored entry must have one amount per player")
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
        key = name_key(name)
        for index, player in enumerate(self.players):
            if name_key(player) == key:
                return index
        raise UnknownPlayerError(
            f"no player named {clean_name(name) or repr(name)} at this table: "
            + ", ".join(self.players)
        )

    @property
    def engine_profile(self) -> AnyProfile:
        return get_profile(self.profile)

    @property
    def engine_options(self) -> Options:
        options: Options = self.engine_profile.parse_options(self.options)
        return options

    @cached_property
    def draw_repeats_deal(self) -> bool:
        """Whether a drawn hand at this table counts as a dealer repeat (the options say: `tw`'s
        `drawn_hand_repeats`), worked out once: replay asks at every draw."""
        return self.engine_options.draw_repeats_deal

    @property
    def points_game(self) -> bool:
        """Whether the table plays a points game (`Profile.points_game`: riichi)."""
        return self.engine_profile.points_game

    @property
    def stops_as_session(self) -> bool:
        """Whether a stop ends this table's session: a money table, neither a points game nor
        a game of fixed length (`Profile.game_hands`: MCR)."""
        profile = self.engine_profile
        return not profile.points_game and profile.game_hands is None

    @cached_property
    def deal_passes(self) -> bool:
        """Whether the deal passes after every hand (`Profile.deal_passes`: mcr), worked out
        once: replay asks at every hand."""
        return self.engine_profile.deal_passes

    @cached_property
    def game(self) -> GameSetup:
        """The points game's setup (`points_game` tables only): the players and the table's
        options as the game reads them."""
        from companion.rules.riichi.outcomes import GameSetup

        return GameSetup.create(self.players, self.engine_options)  # type: ignore[arg-type]

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
    """A validated setup: a known profile, valid options, a distinct name for each of the
    profile's seats (four, or three: `Profile.seats`), hands >= 1, a table name within its
    limit."""
    table_name = name.strip()
    if len(table_name) > MAX_TABLE_NAME:
        raise LimitError(f"a table's name can have at most {MAX_TABLE_NAME} characters")
    found = get_profile(profile)
    if not found.keeps_tables:
        kept = ", ".join(table_profiles())
        raise LedgerError(
            f"the {found.id} profile scores hands but keeps no table yet: a table plays one of "
            f"{kept}",
            key="refusal.no_tables",
            params={"profile": found.id, "profiles": kept},
        )
    options = dict(options or {})
    found.parse_options(options)
    names = tuple(clean_name(player) for player in players)
    seats = len(found.seats)
    if len(names) != seats:
        count = "four" if seats == SEATS else "three"
        raise LedgerError(
            f"a {found.id} table has {count} players in seat order, East first; got "
            f"{len(names)}: " + ", ".join(names)
        )
    for player in names:
        if not player:
            raise LedgerError("a player's name cannot be empty", key="refusal.table_player_empty")
        if len(player) > MAX_PLAYER_NAME:
            raise LimitError(
                f"a player's name can have at most {MAX_PLAYER_NAME} characters: {player[:20]}..."
            )
        if "," in player:
            raise LedgerError(f"a player's name cannot contain a comma: {player}")
    seen: dict[str, str] = {}
    for player in names:
        key = name_key(player)
        if key in seen:
            raise LedgerError(
                same_name(seen[key], player),
                key="refusal.table_same_name",
                params={"first": seen[key], "second": player},
            )
        seen[key] = player
    if planned_hands is not None and planned_hands < 1:
        raise LedgerError("the planned number of hands must be at least 1")
    if planned_rounds is not None and planned_rounds < 1:
        raise LedgerError("the planned number of rounds must be at least 1")
    if planned_hands is not None and planned_hands > MAX_PLANNED_HANDS:
        raise LimitError(f"the planned number of hands can be at most {MAX_PLANNED_HANDS:,}")
    if planned_rounds is not None and planned_rounds > MAX_PLANNED_ROUNDS:
        raise LimitError(f"the planned number of rounds can be at most {MAX_PLANNED_ROUNDS:,}")
    if planned_rounds is not None and planned_hands is not None:
        raise LedgerError("plan a table in hands or in rounds, not both")
    if found.points_game and (planned_hands is not None or planned_rounds is not None):
        raise LedgerError(
            f"a {found.id} game plans no hands or rounds: its length says when it ends "
            "(option length: hanchan or tonpuusen)"
        )
    if found.game_hands is not None:
        if planned_rounds is not None or planned_hands not in (None, found.game_hands):
            raise LedgerError(
                f"the {found.id} game is {found.game_hands} hands, four rounds of four: a table "
                "plans no other length"
            )
        planned_hands = found.game_hands
    return TableSetup(found.id, names, options, planned_hands, table_name, planned_rounds)


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class TableState:
    """Everything derived from the record up to some point."""

    players: tuple[str, ...]
    planned_hands: int | None = None
    planned_rounds: int | None = None
    profile: str = ""
    """The table's profile, whose declarations the standings read (a fixed length, table
    points); "" for a state made without a table."""
    passes: int = 0
    """How many times the deal has passed to the next player."""
    streak: int = 0
    """The dealer's consecutive wins so far (`tw` dealer tai; shown for every profile)."""
    hands: int = 0
    """Hands played: wins and drawn hands (instant payouts are not hands)."""
    totals: Amounts = ZERO
    """Each player's total: money won and lost, or in a points game the points won and lost
    since the start (riichi sticks on the table included, so they sum to minus the
    deposits)."""
    stopped: bool = False
    """A money table stopped: the session ended by a stop entry (`entries.Stop`)."""
    game: GameState | None = None
    """The points game after the record (`points_game` tables): points, deposits, honba,
    the hand to play, its end."""

    @property
    def seats(self) -> int:
        """How many play: four, or three (`sanma`)."""
        return len(self.players)

    @property
    def dealer(self) -> int:
        return self.passes % self.seats

    @property
    def honba(self) -> int:
        return 0 if self.game is None else self.game.honba

    @property
    def settle_totals(self) -> Amounts:
        """What settle-up squares: the totals, or in a points game each player's final result
        (in thousands of points) once the game is over, and nothing before. A chombo's
        penalty is taken off its player's result and paid to nobody, so settle-up leaves it
        out: the results without it sum to zero."""
        if self.game is None:
            return self.totals
        if not self.game.finished:
            return zero(self.seats)
        results = {
            standing.player: standing.result + standing.penalty for standing in self.game.results
        }
        return tuple(results[player] for player in range(self.seats))

    @property
    def round(self) -> Wind:
        """East for the first turn of the deal round all the players, then South, West, North,
        and East again."""
        return WINDS[(self.passes // self.seats) % len(WINDS)]

    def seat_wind(self, player: int) -> Wind:
        """The dealer sits East; the others follow in seat order."""
        return WINDS[(player - self.dealer) % self.seats]

    def player_at(self, wind: Wind) -> int:
        return (self.dealer + wind.index) % self.seats

    @property
    def rounds_played(self) -> int:
        """Full rounds played: the deal has gone round all the seats this many times."""
        return self.passes // self.seats

    @property
    def finished(self) -> bool:
        if self.game is not None:
            return self.game.finished
        if self.stopped:
            return True
        if self.planned_rounds is not None:
            return self.rounds_played >= self.planned_rounds
        return self.planned_hands is not None and self.hands >= self.planned_hands

    @property
    def finished_text(self) -> str:
        """Why no more hands are taken (for a refusal)."""
        if self.game is not None:
            from companion.rules.riichi.game import end_text

            return f"the game is over ({end_text(self.game)}): no hand is played after it"
        if self.stopped:
            return "the table was stopped: no hand is played after it"
        if self.planned_rounds is not None:
            rounds = "round is" if self.planned_rounds == 1 else f"{self.planned_rounds} rounds are"
            return f"the table's {rounds} all played"
        if self._profile is not None and self._profile.game_hands is not None:
            return (
                f"the game is over (its {self._profile.game_hands} hands are all played): no "
                "hand is played after it"
            )
        hands = "hand is" if self.planned_hands == 1 else f"{self.planned_hands} hands are"
        return f"the table's {hands} all played"

    @property
    def next_hand(self) -> int:
        return self.hands + 1

    @property
    def _profile(self) -> AnyProfile | None:
        return get_profile(self.profile) if self.profile else None

    def table_points(self) -> tuple[Fraction, ...] | None:
        """Each player's table points for the scores as they stand (`Profile.table_points`):
        the final ones once the game is over, before that what the present order would give;
        None where the profile ranks no table by table points."""
        profile = self._profile
        if profile is None or not profile.table_points:
            return None
        return profile.table_points_of(self.totals)

    def places(self) -> tuple[int, ...]:
        """Each player's place by total, 1 the highest; tied players share the best of their
        places (two tied first are both 1, the next is 3)."""
        return tuple(1 + sum(other > total for other in self.totals) for total in self.totals)

    def amounts(self, payments: Mapping[Wind, Fraction]) -> Amounts:
        """Engine payments by seat wind as amounts by player."""
        return tuple(
            payments.get(self.seat_wind(player), Fraction(0)) for player in range(self.seats)
        )

    def to_json(self) -> dict[str, Any]:
        data = self._json()
        if self.game is not None:
            data.update(game_json(self.game))
            for player, points in zip(data["players"], self.game.points, strict=True):
                player["points"] = points
            finals = game_finals(self.game)
            for index, player in enumerate(data["players"]):
                player["final"] = None if finals is None else finals[index]
        shared = self.table_points()
        if shared is not None:
            data["table_points"] = True
            places = self.places()
            for index, player in enumerate(data["players"]):
                player["score"] = int(self.totals[index])
                player["table_points"] = format_amount(shared[index])
                player["place"] = places[index]
        return data

    def _json(self) -> dict[str, Any]:
        return {
            "players": [
                {
                    "name": name,
                    "seat": self.seat_wind(index).value,
                    "total": amount_json(self.totals[index]),
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
            "deals_in_round": self.passes % self.seats + 1,
            "finished": self.finished,
            "stopped": self.stopped,
            "dealer": self.players[self.dealer],
            "dealer_streak": self.streak,
            "round": self.round.value,
            "next_hand": None if self.finished else self.next_hand,
        }


def initial_state(setup: TableSetup) -> TableState:
    if setup.points_game:
        from companion.rules.riichi.game import start

        return TableState(
            setup.players,
            profile=setup.profile,
            totals=zero(len(setup.players)),
            game=start(setup.game),
        )
    return TableState(setup.players, setup.planned_hands, setup.planned_rounds, setup.profile)


def game_finals(game: GameState) -> list[float] | None:
    """Each player's final result in seat order, a number with one decimal (23.1), once the
    game is over; None before."""
    if not game.finished:
        return None
    shown = {standing.player: float(standing.shown) for standing in game.results}
    return [shown[player] for player in range(game.seats)]


def game_json(game: GameState) -> dict[str, Any]:
    """A points game's counters for the standings: the hand to play and its label, honba,
    deposits, and at the end why it ended and the final standings, first place first."""
    hand = game.hand
    options = game.options
    data: dict[str, Any] = {
        "points_game": True,
        "hand_label": None if hand is None else hand.label,
        "hand_number": None if hand is None else hand.number,
        "honba": game.honba,
        "deposits": game.deposits,
        "riichi_sticks": game.deposits // 1000,
        "ended": None if game.ended is None else game.ended.value,
        "start_points": options.start_points,
        "return_points": options.return_points,
        "uma": list(options.uma),
        "oka": options.oka,
        "length": options.length,
    }
    if game.finished:
        data["results"] = [
            {
                "name": standing.name,
                "place": standing.place,
                "points": float(standing.points)
                if standing.points.denominator != 1
                else int(standing.points),
                "uma": float(standing.uma),
                "oka": float(standing.oka),
                "penalty": float(standing.penalty),
                "final": float(standing.shown),
                "final_exact": str(standing.result),
            }
            for standing in game.results
        ]
    return data


def table_key(table_id: str) -> str:
    """A table id as the ledger stores it: ids are case-insensitive, spaces around them ignored."""
    return table_id.strip().lower()
