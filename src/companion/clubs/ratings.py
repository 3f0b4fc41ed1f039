"""A club's ratings from its finished games (docs/ratings.md).

Pure: the games, in the order they finished, give every player's OpenSkill rating, Tenhou-style
R and total, with the value of each after every game; the same games give the same figures.

- **OpenSkill**: the `openskill` package's Weng-Lin Plackett-Luce model with its defaults
  (mu 25, sigma 25/3), each game's places passed as its ranks (tied players share one); shown as the
  ordinal mu - 3 sigma.
- **Tenhou-style R**: every player starts at 1500; after a game
  ΔR = f * (place base + (the table's average R - own R) / 40), f = 1 - 0.002 * the games the
  player rated before this one, at least 0.2. The place bases are +30 +10 -10 -30 at a table of
  four, and +30 0 -30 at a table of three (sanma); tied players share the bases of the places
  they span (two tied second at a table of four: (+10 - 10) / 2 = 0 each). R is a Decimal
  worked to 28 significant digits whatever the caller's decimal context, so a few games by hand
  give exactly the same figures.
- **Total**: the sum of the player's results, exact (a Fraction).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from enum import Enum
from fractions import Fraction
from functools import cache, cached_property

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.errors import InvalidRequestError


class RatingsError(InvalidRequestError):
    """Games or a request that cannot be rated as given; the message says why."""


class RatingOrder(Enum):
    """Which rating orders a club's leaderboard."""

    OPENSKILL = "openskill"
    """The OpenSkill ordinal mu - 3 sigma: a player rises as the model grows sure of them."""
    TENHOU = "tenhou"
    """Tenhou-style R."""
    TOTAL = "total"
    """The sum of the game results, in the profile's unit."""


Amount = Fraction | Decimal | int
"""A game result as the profile counts it: exact, never a float."""

TABLE_SIZES = (3, 4)
"""The tables that are rated: the place bases of Tenhou-style R are defined for these."""


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's end of one game: their place (1 is first; tied players share the higher
    place, and the next place skips: 1, 1, 3, 4) and their result in the profile's unit."""

    player: str
    """The player's key (a roster id or a name), compared exactly as given."""
    place: int
    result: Amount

    def __post_init__(self) -> None:
        if not isinstance(self.player, str) or not self.player:
            raise RatingsError(f"a player is named by a non-empty text, not {self.player!r}")
        if isinstance(self.place, bool) or not isinstance(self.place, int):
            raise RatingsError(f"{self.player}'s place is a whole number, not {self.place!r}")
        exact = isinstance(self.result, Fraction | int) and not isinstance(self.result, bool)
        if not (exact or (isinstance(self.result, Decimal) and self.result.is_finite())):
            raise RatingsError(
                f"{self.player}'s result must be an exact amount (a Fraction or a Decimal), "
                f"not {self.result!r}"
            )


@dataclass(frozen=True)
class Game:
    """A finished game: its id, when it finished, its profile family (`riichi`, `mcr`, ...)
    and number of seats, and each seat's finish."""

    game_id: str
    finished_at: datetime
    family: str
    seats: int
    finishes: tuple[Finish, ...]

    def __post_init__(self) -> None:
        # A list given for the finishes is kept as a tuple: the game stays immutable.
        object.__setattr__(self, "finishes", tuple(self.finishes))
        if not self.finishes:
            raise RatingsError(f"game {self.game_id} has no players")
        if self.seats not in TABLE_SIZES:
            raise RatingsError(
                f"game {self.game_id} has {self.seats} seats: games of three or four are rated"
            )
        if len(self.finishes) != self.seats:
            raise RatingsError(
                f"game {self.game_id} has {self.seats} seats but "
                f"{len(self.finishes)} players finished it"
            )
        names = [finish.player for finish in self.finishes]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise RatingsError(f"game {self.game_id} names {', '.join(twice)} twice")
        places = [finish.place for finish in self.finishes]
        if sorted(places) != _competition_places(places):
            raise RatingsError(
                f"game {self.game_id}: places {', '.join(map(str, sorted(places)))} do not fit "
                f"{self.seats} players (each place is one more than the number of players "
                f"placed above; tied players share one, and the next place skips: 1, 1, 3, 4)"
            )


def _competition_places(places: Sequence[int]) -> list[int]:
    """The places, sorted, that players so placed would have: one more than those above."""
    return sorted(1 + sum(other < place for other in places) for place in places)


@dataclass(frozen=True)
class Period:
    """The days whose games are rated, `first` to `last`, both included: a season, or "as of"
    a day when only `last` is set. A game counts on the day of its `finished_at` as given (the
    caller gives the club's own time). None leaves that end open."""

    first: date | None = None
    last: date | None = None

    def __post_init__(self) -> None:
        if self.first is not None and self.last is not None and self.first > self.last:
            raise RatingsError(f"a season cannot end ({self.last}) before it starts ({self.first})")

    @classmethod
    def as_of(cls, day: date) -> Period:
        """Every game finished on or before `day`."""
        return cls(last=day)

    @classmethod
    def season(cls, first: date, last: date) -> Period:
        return cls(first=first, last=last)

    def holds(self, moment: datetime) -> bool:
        day = moment.date()
        return (self.first is None or self.first <= day) and (self.last is None or day <= self.last)


ALL_TIME = Period()


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's ratings just after one game, with that game's place and result: one point
    of the history a player's page charts."""

    game_id: str
    finished_at: datetime
    place: int
    result: Fraction
    mu: float
    sigma: float
    ordinal: float
    tenhou_r: Decimal
    total: Fraction


@dataclass(frozen=True)
class PlayerRatings:
    """A player's ratings over the rated period: the latest values and the history that led to
    them, one point a game."""

    player: str
    history: tuple[RatingPoint, ...]

    @property
    def games(self) -> int:
        return len(self.history)

    @property
    def mu(self) -> float:
        return self.history[-1].mu

    @property
    def sigma(self) -> float:
        return self.history[-1].sigma

    @property
    def ordinal(self) -> float:
        return self.history[-1].ordinal

    @property
    def tenhou_r(self) -> Decimal:
        return self.history[-1].tenhou_r

    @property
    def total(self) -> Fraction:
        return self.history[-1].total

    @cached_property
    def average_place(self) -> Fraction:
        """The mean of the places as recorded (two players tied second each count 2)."""
        return Fraction(sum(point.place for point in self.history), len(self.history))

    def rating(self, order: RatingOrder) -> float | Decimal | Fraction:
        """The value by which `order` ranks the player."""
        if order is RatingOrder.OPENSKILL:
            return self.ordinal
        if order is RatingOrder.TENHOU:
            return self.tenhou_r
        return self.total


@dataclass(frozen=True)
class Ratings:
    """Every player's ratings over a period, and the leaderboards they make."""

    period: Period
    games: int
    """The games rated: those finished in the period."""
    players: Mapping[str, PlayerRatings]
    """By player key, in the order they first played in the period."""

    def leaderboard(self, order: RatingOrder, minimum_games: int = 0) -> tuple[PlayerRatings, ...]:
        """The players with at least `minimum_games` games, best first by `order`; equal ratings
        go to the player with more games, then by key, so the order never depends on chance."""
        if isinstance(minimum_games, bool) or not isinstance(minimum_games, int):
            raise RatingsError(f"the minimum of games is a whole number, not {minimum_games!r}")
        if minimum_games < 0:
            raise RatingsError(f"the minimum of games cannot be negative ({minimum_games})")
        shown = [entry for entry in self.players.values() if entry.games >= minimum_games]
        shown.sort(key=lambda entry: entry.player)
        shown.sort(key=lambda entry: (entry.rating(order), entry.games), reverse=True)
        return tuple(shown)


TENHOU_START = Decimal(1500)
_TENHOU_CONTEXT = Context(prec=28, rounding=ROUND_HALF_EVEN)
_PLACE_BASES = {4: (30, 10, -10, -30), 3: (30, 0, -30)}
_FACTOR_STEP = Decimal("0.002")
_FACTOR_FLOOR = Decimal("0.2")


def tenhou_factor(games_before: int) -> Decimal:
    """f: 1 - 0.002 for each game the player rated before this one, at least 0.2 (from the
    400th game on)."""
    return max(_FACTOR_FLOOR, 1 - _FACTOR_STEP * games_before)


@cache
def place_bases(places: tuple[int, ...]) -> tuple[Decimal, ...]:
    """Each player's place base at a table of len(places): tied players share the mean of the
    bases of the places they span. Exact: every such mean at a table of three or four is a
    whole number."""
    bases = _PLACE_BASES[len(places)]
    shared = []
    for place in places:
        tied = places.count(place)
        shared.append(Decimal(sum(bases[place - 1 : place - 1 + tied])) / tied)
    return tuple(shared)


def rate_games(games: Iterable[Game], period: Period = ALL_TIME) -> Ratings:
    """The ratings of every player of the games finished in `period`.

    `games` come in the order they finished; every game is checked (ids unique, times never
    going back, one profile family, since totals in different units do not add), those outside
    the period included, so that a request for a season refuses what the whole history would."""
    model = PlackettLuce()
    skill: dict[str, PlackettLuceRating] = {}
    tenhou: dict[str, Decimal] = {}
    histories: dict[str, list[RatingPoint]] = {}
    checks = _Sequence()
    rated = 0
    with localcontext(_TENHOU_CONTEXT):
        for game in games:
            checks.take(game)
            if not period.holds(game.finished_at):
                continue
            rated += 1
            finishes = game.finishes
            players = [finish.player for finish in finishes]
            places = tuple(finish.place for finish in finishes)
            teams = [[skill[player] if player in skill else model.rating()] for player in players]
            after = model.rate(teams, ranks=[float(place) for place in places])
            before_r = [tenhou.get(player, TENHOU_START) for player in players]
            average_r = sum(before_r, Decimal(0)) / len(before_r)
            for finish, (rating,), own_r, base in zip(
                finishes, after, before_r, place_bases(places), strict=True
            ):
                player = finish.player
                history = histories.setdefault(player, [])
                new_r = own_r + tenhou_factor(len(history)) * (base + (average_r - own_r) / 40)
                result = Fraction(finish.result)
                total = history[-1].total + result if history else result
                skill[player] = rating
                tenhou[player] = new_r
                history.append(
                    RatingPoint(
                        game_id=game.game_id,
                        finished_at=game.finished_at,
                        place=finish.place,
                        result=result,
                        mu=rating.mu,
                        sigma=rating.sigma,
                        ordinal=rating.ordinal(),
                        tenhou_r=new_r,
                        total=total,
                    )
                )
    players_rated = {
        player: PlayerRatings(player, tuple(history)) for player, history in histories.items()
    }
    return Ratings(period=period, games=rated, players=players_rated)


class _Sequence:
    """What the games seen so far say about the next: its id is new, it did not finish before
    the last one, and it is of the same profile family."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.last: Game | None = None

    def take(self, game: Game) -> None:
        if game.game_id in self.ids:
            raise RatingsError(f"game {game.game_id} is given twice")
        last = self.last
        if last is not None:
            if game.family != last.family:
                raise RatingsError(
                    f"game {game.game_id} is a {game.family} game after {last.family} games: "
                    "a club's games are rated in one profile family, whose results add up"
                )
            try:
                earlier = game.finished_at < last.finished_at
            except TypeError:
                raise RatingsError(
                    f"game {game.game_id} finished at a time {_zone(game)} a time zone and "
                    f"game {last.game_id} at one {_zone(last)}: give every time the same way"
                ) from None
            if earlier:
                raise RatingsError(
                    f"game {game.game_id} finished at {game.finished_at.isoformat()}, before "
                    f"game {last.game_id} ({last.finished_at.isoformat()}): give the games in "
                    "the order they finished"
                )
        self.ids.add(game.game_id)
        self.last = game


def _zone(game: Game) -> str:
    return "without" if game.finished_at.tzinfo is None else "with"
