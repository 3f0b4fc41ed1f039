"""A club's leaderboard and a player's page as JSON and CSV: the columns declared once here and
read by the command line, the API and the pages' downloads (docs/clubs.md, *Exports*); and the
dates a request names, read into a `Period`."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from companion.clubs.ratings import ALL_TIME, Period, PlayerRatings, Ratings, RatingsError
from companion.clubs.stats import ClubGame, Mean, Share
from companion.ledger.club_book.errors import ClubError
from companion.ledger.club_book.reads import ClubRecord, PlayerPage
from companion.settlement import amount_json, format_amount


def _day(text: str | None, what: str) -> date | None:
    if text is None or text == "":
        return None
    if isinstance(text, str) and len(text) == 10:
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    shown = str(text)[:20]
    raise ClubError(
        f"a date is written YYYY-MM-DD, not '{shown}'",
        key="refusal.club_date",
        params={"what": what, "text": shown},
    )


def period_of(as_of: str | None = None, since: str | None = None) -> Period:
    """The games rated: up to the end of `as_of`, from the start of `since` (a season is both);
    each a date written YYYY-MM-DD, or None for no end."""
    last, first = _day(as_of, "as of"), _day(since, "since")
    if last is None and first is None:
        return ALL_TIME
    try:
        return Period(first=first, last=last)
    except RatingsError:
        raise ClubError("a season cannot end before it starts", key="refusal.club_season") from None


Column = tuple[str, Callable[[ClubRecord, PlayerRatings], Any]]

LEADERBOARD_COLUMNS: tuple[Column, ...] = (
    ("name", lambda record, player: record.name_of(player.player)),
    ("games", lambda _, player: player.games),
    ("mu", lambda _, player: round(player.mu, 6)),
    ("sigma", lambda _, player: round(player.sigma, 6)),
    ("ordinal", lambda _, player: round(player.ordinal, 6)),
    ("tenhou_r", lambda _, player: float(round(player.tenhou_r, 2))),
    ("total", lambda _, player: amount_json(player.total)),
    ("average_place", lambda _, player: float(round(player.average_place, 4))),
)
"""The leaderboard's columns, in order: the JSON's keys and the CSV's header."""


def leaderboard_rows(
    record: ClubRecord, ratings: Ratings, minimum_games: int = 0
) -> list[dict[str, Any]]:
    """The players best first by the club's rating, with at least `minimum_games` games."""
    return [
        {name: value(record, player) for name, value in LEADERBOARD_COLUMNS}
        for player in ratings.leaderboard(record.rating, minimum_games)
    ]


def leaderboard_json(
    record: ClubRecord, ratings: Ratings, minimum_games: int = 0
) -> dict[str, Any]:
    period = ratings.period
    return {
        "club": record.id,
        "name": record.name,
        "rating": record.rating.value,
        "games": ratings.games,
        "as_of": None if period.last is None else period.last.isoformat(),
        "since": None if period.first is None else period.first.isoformat(),
        "minimum_games": minimum_games,
        "players": leaderboard_rows(record, ratings, minimum_games),
    }


def as_csv(header: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(header), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def leaderboard_csv(record: ClubRecord, ratings: Ratings, minimum_games: int = 0) -> str:
    return as_csv(
        [name for name, _ in LEADERBOARD_COLUMNS], leaderboard_rows(record, ratings, minimum_games)
    )


GameColumn = tuple[str, Callable[[ClubRecord, ClubGame, str], Any]]


def _seat(game: ClubGame, key: str) -> int:
    return game.players.index(key)


GAME_COLUMNS: tuple[GameColumn, ...] = (
    ("table", lambda _, game, key: game.table_id),
    ("name", lambda _, game, key: game.name),
    ("finished_at", lambda _, game, key: game.finished_at.isoformat()),
    ("profile", lambda _, game, key: game.profile),
    ("place", lambda _, game, key: game.places[_seat(game, key)]),
    ("result", lambda _, game, key: format_amount(game.results[_seat(game, key)])),
    (
        "opponents",
        lambda record, game, key: ", ".join(
            record.name_of(other) for other in game.players if other != key
        ),
    ),
)
"""A player's game, one row: the CSV's header and the JSON's keys, for one player's games
and (after the player's name) for every player's games of the club."""

CLUB_GAME_COLUMNS: tuple[GameColumn, ...] = (
    ("player", lambda record, game, key: record.name_of(key)),
    *GAME_COLUMNS,
)
"""Every player's games of a club: the player, then a player's game's columns."""


def _game_rows(
    record: ClubRecord, seats: Iterable[tuple[ClubGame, str]], columns: Sequence[GameColumn]
) -> list[dict[str, Any]]:
    return [{name: value(record, game, key) for name, value in columns} for game, key in seats]


def player_games(record: ClubRecord, page: PlayerPage) -> list[dict[str, Any]]:
    """The player's games, latest first."""
    seats = ((game, page.player.key) for game in page.games)
    return _game_rows(record, seats, GAME_COLUMNS)


def player_games_csv(record: ClubRecord, page: PlayerPage) -> str:
    return as_csv([name for name, _ in GAME_COLUMNS], player_games(record, page))


def club_games(record: ClubRecord, period: Period = ALL_TIME) -> list[dict[str, Any]]:
    """Every player's games of the club in `period`: latest game first, a row per player at it
    in the table's seat order (a name not on the roster under its own name)."""
    games = [game for game in reversed(record.games) if period.holds(game.finished_at)]
    seats = ((game, key) for game in games for key in game.players)
    return _game_rows(record, seats, CLUB_GAME_COLUMNS)


def club_games_json(record: ClubRecord, period: Period = ALL_TIME) -> dict[str, Any]:
    return {
        "club": record.id,
        "name": record.name,
        "as_of": None if period.last is None else period.last.isoformat(),
        "since": None if period.first is None else period.first.isoformat(),
        "games": club_games(record, period),
    }


def club_games_csv(record: ClubRecord, period: Period = ALL_TIME) -> str:
    return as_csv([name for name, _ in CLUB_GAME_COLUMNS], club_games(record, period))


def _share(share: Share) -> dict[str, Any]:
    rate = share.rate
    return {"count": share.count, "over": share.over, "rate": _number(rate)}


def _mean(mean: Mean) -> dict[str, Any]:
    return {"over": mean.over, "value": _number(mean.value)}


def _number(value: Fraction | Decimal | None) -> float | None:
    return None if value is None else round(float(value), 4)


def player_json(record: ClubRecord, page: PlayerPage) -> dict[str, Any]:
    """A player's page as JSON: who, their ratings now and game by game, stats (each with what
    it is over), head-to-head and games."""
    stats, ratings = page.stats, page.ratings
    player = page.player
    return {
        "club": record.id,
        "player": player.to_json(),
        "ratings": None
        if ratings is None
        else {name: value(record, ratings) for name, value in LEADERBOARD_COLUMNS},
        "history": []
        if ratings is None
        else [
            {
                "table": point.game_id,
                "finished_at": point.finished_at.isoformat(),
                "place": point.place,
                "result": format_amount(point.result),
                "mu": round(point.mu, 6),
                "sigma": round(point.sigma, 6),
                "ordinal": round(point.ordinal, 6),
                "tenhou_r": float(round(point.tenhou_r, 2)),
                "total": format_amount(point.total),
            }
            for point in ratings.history
        ],
        "stats": {
            "games": stats.games,
            "places": [_share(share) for share in stats.places],
            "average_place": _mean(stats.average_place),
            "total": format_amount(stats.total),
            "hands": stats.hands,
            "wins": _share(stats.wins),
            "deal_ins": _share(stats.deal_ins),
            "riichi": _share(stats.riichi),
            "self_draws": _share(stats.self_draws),
            "average_win": _mean(stats.average_win),
            "average_count": _mean(stats.average_count),
            "largest_win": None if stats.largest_win is None else format_amount(stats.largest_win),
        },
        "head_to_head": [
            {
                "opponent": record.name_of(row.opponent),
                "games": row.games,
                "higher": row.higher,
                "lower": row.lower,
            }
            for row in page.opponents
        ],
        "games": player_games(record, page),
    }
