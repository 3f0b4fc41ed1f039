"""A club's games as the ledger recorded them, and each player's stats over them (docs/clubs.md).

Pure: a `ClubGame` is one finished table read into plain values (who sat, their places and
results, and for every hand who won, from whose discard, who declared riichi and what each
player gained), and `player_stats` counts a player's games and hands. Each stat is a `Share`
or a `Mean` that says how many games or hands it is over, so a page can say "12 of 80 hands".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from companion.clubs.ratings import Finish, Game


@dataclass(frozen=True, slots=True)
class HandFacts:
    """One hand of a game, players by their seat in it: the winners (none for a drawn hand),
    the discarder who dealt in (None for a self-draw or no win), the players who declared
    riichi, each winner's count (han, fan or tai as the profile counts) and what the hand
    moved for each player (a riichi hand: points, sticks and honba included)."""

    winners: tuple[int, ...]
    discarder: int | None
    riichi: tuple[int, ...]
    counts: tuple[int, ...]
    gains: tuple[Fraction, ...]


@dataclass(frozen=True)
class ClubGame:
    """A finished game of the club: the table's id, when the entry that ended it was recorded,
    the profile and its family, the players' keys in seat order (the roster's), their places
    (tied players share the better one) and results in the profile's unit, and its hands."""

    table_id: str
    name: str
    finished_at: datetime
    profile: str
    family: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    results: tuple[Fraction, ...]
    hands: tuple[HandFacts, ...]

    def rated(self) -> Game:
        """The game as `rate_games` takes it."""
        return Game(
            game_id=self.table_id,
            finished_at=self.finished_at,
            family=self.family,
            seats=len(self.players),
            finishes=tuple(
                Finish(player, place, result)
                for player, place, result in zip(
                    self.players, self.places, self.results, strict=True
                )
            ),
        )


@dataclass(frozen=True, slots=True)
class Share:
    """`count` of `over` (games or hands): 12 of 80 hands. `rate` is None over nothing."""

    count: int
    over: int

    @property
    def rate(self) -> Fraction | None:
        return None if self.over == 0 else Fraction(self.count, self.over)


@dataclass(frozen=True, slots=True)
class Mean:
    """The mean of `over` values (`value` None over none)."""

    total: Fraction
    over: int

    @property
    def value(self) -> Fraction | None:
        return None if self.over == 0 else self.total / self.over


@dataclass(frozen=True)
class PlayerStats:
    """A player's stats over their games: every figure says what it is over."""

    games: int
    places: tuple[Share, ...]
    """The share of each place, first to last (over the games)."""
    average_place: Mean
    total: Fraction
    """The sum of the results, in the profile's unit (net for money, table points for MCR)."""
    hands: int
    """Hands played at the player's tables (wins and drawn hands; no chombo or stop)."""
    wins: Share
    """Hands won, over the hands played."""
    deal_ins: Share
    """Hands won from the player's discard, over the hands played."""
    riichi: Share
    """Hands in which the player declared riichi, over the hands played."""
    self_draws: Share
    """Wins by self-draw (tsumo), over the wins."""
    average_win: Mean
    """What a win gained the player, on average over the wins (points, or money)."""
    average_count: Mean
    """The han, fan or tai of a win, on average over the wins."""
    largest_win: Fraction | None
    """The most a single win gained the player (None without a win)."""


def player_stats(games: Iterable[ClubGame], player: str) -> PlayerStats:
    """`player`'s stats over the games they played among `games`."""
    played = [game for game in games if player in game.players]
    seats = max((len(game.players) for game in played), default=4)
    place_counts = [0] * seats
    place_sum = 0
    total = Fraction(0)
    hands = wins = deal_ins = riichi = self_draws = count_sum = 0
    win_gains: list[Fraction] = []
    for game in played:
        seat = game.players.index(player)
        place_counts[game.places[seat] - 1] += 1
        place_sum += game.places[seat]
        total += game.results[seat]
        for hand in game.hands:
            hands += 1
            riichi += seat in hand.riichi
            if hand.discarder == seat and hand.winners:
                deal_ins += 1
            if seat in hand.winners:
                wins += 1
                self_draws += hand.discarder is None
                count_sum += hand.counts[hand.winners.index(seat)]
                win_gains.append(hand.gains[seat])
    return PlayerStats(
        games=len(played),
        places=tuple(Share(count, len(played)) for count in place_counts),
        average_place=Mean(Fraction(place_sum), len(played)),
        total=total,
        hands=hands,
        wins=Share(wins, hands),
        deal_ins=Share(deal_ins, hands),
        riichi=Share(riichi, hands),
        self_draws=Share(self_draws, wins),
        average_win=Mean(sum(win_gains, Fraction(0)), wins),
        average_count=Mean(Fraction(count_sum), wins),
        largest_win=max(win_gains, default=None),
    )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """A player against one opponent: the games they played together, and how often each
    placed higher (a shared place counts for neither)."""

    opponent: str
    games: int
    higher: int
    lower: int


def head_to_head(games: Sequence[ClubGame], player: str) -> tuple[HeadToHead, ...]:
    """`player` against every opponent they met, most games together first."""
    met: dict[str, list[int]] = {}
    for game in games:
        if player not in game.players:
            continue
        own = game.places[game.players.index(player)]
        for other, place in zip(game.players, game.places, strict=True):
            if other != player:
                tally = met.setdefault(other, [0, 0, 0])
                tally[0] += 1
                tally[1] += own < place
                tally[2] += own > place
    rows = [HeadToHead(other, *tally) for other, tally in met.items()]
    rows.sort(key=lambda row: (-row.games, row.opponent))
    return tuple(rows)
