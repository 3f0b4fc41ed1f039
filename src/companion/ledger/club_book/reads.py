"""A club read back: its roster, its finished games in the order they finished, and the
ratings, stats and head-to-head they give (docs/clubs.md, *Read from the ledger*).

Nothing of the ratings is stored: they are worked out from the tables' records whenever they
are asked for, and kept (per ledger) under the club's version and each of its tables' last
entry, so a page read again costs one small query until a roster action or a hand changes
what they would say. A table's finished game is kept under its last entry too: a new hand at
one table reads that table again, not the others."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from companion.clubs.ratings import ALL_TIME, Period, PlayerRatings, RatingOrder, Ratings
from companion.clubs.ratings import rate_games as rate
from companion.clubs.stats import ClubGame, HeadToHead, PlayerStats, head_to_head, player_stats
from companion.ledger.checks import unstorable
from companion.ledger.club_book.errors import UnknownClubError
from companion.ledger.club_book.games import club_game
from companion.ledger.club_book.roster import Roster, RosterPlayer
from companion.ledger.models import (
    ClubAliasRow,
    ClubEventRow,
    ClubPlayerRow,
    ClubRow,
    ClubTableRow,
    EntryRow,
    EventTableRow,
)
from companion.ledger.repository import Ledger
from companion.ledger.rows import aware
from companion.ledger.state import table_key

_PERIODS_KEPT = 8
"""Ratings kept per club: all time and the last few periods asked for."""


@dataclass(frozen=True)
class ClubRecord:
    """A club as it stands: its setup, roster and finished games, oldest first."""

    id: str
    name: str
    rating: RatingOrder
    family: str | None
    version: int
    private: bool
    """Whether its ratings and players' pages need the organiser's token."""
    roster: Roster
    tables: tuple[str, ...]
    games: tuple[ClubGame, ...]
    """Players by their rating key (`Roster.key_of`)."""

    def name_of(self, key: str) -> str:
        return self.roster.name_of(key)


@dataclass(frozen=True)
class PlayerPage:
    """What a player's page shows: the roster entry, their ratings over the period (None
    without a game in it), their stats, head-to-head and games (latest first)."""

    player: RosterPlayer
    ratings: PlayerRatings | None
    stats: PlayerStats
    opponents: tuple[HeadToHead, ...]
    games: tuple[ClubGame, ...]


class _Cache:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: dict[str, tuple[int, ClubGame | None]] = {}
        self.clubs: dict[str, tuple[object, ClubRecord]] = {}
        self.ratings: dict[str, OrderedDict[tuple[object, Period], Ratings]] = {}


_CACHES: weakref.WeakKeyDictionary[Ledger, _Cache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def _cache_of(ledger: Ledger) -> _Cache:
    with _CACHES_LOCK:
        cache = _CACHES.get(ledger)
        if cache is None:
            cache = _CACHES[ledger] = _Cache()
        return cache


class ClubReads:
    """The reading half of `ClubBook`."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._cache = _cache_of(ledger)

    def _session(self) -> Session:
        return self.ledger._session()

    def _guard(self) -> AbstractContextManager[None]:
        return self.ledger._guard()

    def _club(self, session: Session, club_id: str, *, lock: bool = False) -> ClubRow:
        if not isinstance(club_id, str) or unstorable(club_id):
            raise _unknown_club(club_id)
        query = select(ClubRow).where(ClubRow.id == table_key(club_id))
        if lock:
            query = query.with_for_update()
        row = session.scalars(query).one_or_none()
        if row is None:
            raise _unknown_club(club_id)
        return row

    def _roster(self, session: Session, club_id: str) -> Roster:
        return Roster.of(
            session.scalars(
                select(ClubPlayerRow)
                .where(ClubPlayerRow.club_id == club_id)
                .order_by(ClubPlayerRow.id)
            ),
            session.scalars(select(ClubAliasRow).where(ClubAliasRow.club_id == club_id)),
        )

    def name(self, club_id: str) -> tuple[str, str]:
        """The club's id as stored and its name (no secret of a private club's: its ratings
        and players' pages are)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._club(session, club_id)
            return row.id, row.name

    def roster(self, club_id: str) -> Roster:
        with self._guard(), self._session() as session, session.begin():
            return self._roster(session, self._club(session, club_id).id)

    def club_of_table(self, table_id: str) -> str | None:
        """The club a table belongs to (itself or by its event), or None."""
        if unstorable(table_id):
            return None
        key = table_key(table_id)
        with self._guard(), self._session() as session, session.begin():
            own = session.get(ClubTableRow, key)
            if own is not None:
                return own.club_id
            return session.scalars(
                select(ClubEventRow.club_id)
                .join(EventTableRow, EventTableRow.event_id == ClubEventRow.event_id)
                .where(EventTableRow.table_id == key)
            ).first()

    def club_of_event(self, event_id: str) -> str | None:
        if unstorable(event_id):
            return None
        with self._guard(), self._session() as session, session.begin():
            row = session.get(ClubEventRow, table_key(event_id))
            return None if row is None else row.club_id

    # -- the games -----------------------------------------------------------------------------

    def record(self, club_id: str) -> ClubRecord:
        """The club as it stands, its games read from their tables (cached: see the module)."""
        with self._guard(), self._session() as session, session.begin():
            club = self._club(session, club_id)
            event_tables = select(EventTableRow.table_id).join(
                ClubEventRow, ClubEventRow.event_id == EventTableRow.event_id
            )
            own_tables = select(ClubTableRow.table_id).where(ClubTableRow.club_id == club.id)
            tables = set(session.scalars(own_tables)) | set(
                session.scalars(event_tables.where(ClubEventRow.club_id == club.id))
            )
            rows = session.execute(
                select(EntryRow.table_id, func.max(EntryRow.seq))
                .where(EntryRow.table_id.in_(tables))
                .group_by(EntryRow.table_id)
            )
            last: dict[str, int] = {row[0]: row[1] for row in rows}
            key = (club.version, tuple(sorted(last.items())))
            with self._cache.lock:
                cached = self._cache.clubs.get(club.id)
            if cached is not None and cached[0] == key:
                return cached[1]
            roster = self._roster(session, club.id)
            setup = (
                club.id,
                club.name,
                RatingOrder(club.rating),
                club.family,
                club.version,
                club.private,
            )
        games = [game for table in sorted(tables) for game in self._game(table, last.get(table))]
        games.sort(key=lambda game: (game.finished_at, game.table_id))
        keyed = tuple(
            replace(game, players=tuple(roster.key_of(name) for name in game.players))
            for game in games
        )
        record = ClubRecord(*setup, roster, tuple(sorted(tables)), keyed)
        with self._cache.lock:
            self._cache.clubs[club.id] = (key, record)
        return record

    def _game(self, table_id: str, last: int | None) -> Iterator[ClubGame]:
        if last is None:
            return
        with self._cache.lock:
            cached = self._cache.tables.get(table_id)
        if cached is None or cached[0] != last:
            game = club_game(table_id, self.ledger.replay(table_id))
            cached = (last, game)
            with self._cache.lock:
                self._cache.tables[table_id] = cached
        if cached[1] is not None:
            yield replace(cached[1], finished_at=aware(cached[1].finished_at))

    # -- ratings and a player's page -----------------------------------------------------------

    def ratings(self, club_id: str, period: Period = ALL_TIME) -> tuple[ClubRecord, Ratings]:
        """The club's ratings over `period`, from its games (cached with them)."""
        record = self.record(club_id)
        version = self._cache.clubs[record.id][0]
        with self._cache.lock:
            kept = self._cache.ratings.setdefault(record.id, OrderedDict())
            found = kept.get((version, period))
        if found is None:
            found = rate((game.rated() for game in record.games), period)
            with self._cache.lock:
                kept[(version, period)] = found
                while len(kept) > _PERIODS_KEPT:
                    kept.popitem(last=False)
        return record, found

    def rated_order(self, club_id: str, names: Sequence[str]) -> list[str]:
        """`names` best first by the club's rating over all its games (what round 1 "balanced
        by rating" deals in snake order); names without a rated game after, as given."""
        record, ratings = self.ratings(club_id)
        rank = {
            player.player: position
            for position, player in enumerate(ratings.leaderboard(record.rating))
        }
        unrated = len(rank)
        keyed = [
            (rank.get(record.roster.key_of(name), unrated), index)
            for index, name in enumerate(names)
        ]
        return [names[index] for _, index in sorted(keyed)]

    def player_page(self, club_id: str, name: str, period: Period = ALL_TIME) -> PlayerPage:
        record, ratings = self.ratings(club_id, period)
        player = record.roster.counting(record.roster.own(name).id)
        games = tuple(
            game
            for game in record.games
            if player.key in game.players and period.holds(game.finished_at)
        )
        return PlayerPage(
            player=player,
            ratings=ratings.players.get(player.key),
            stats=player_stats(games, player.key),
            opponents=head_to_head(games, player.key),
            games=tuple(reversed(games)),
        )


def played_together(games: Iterable[ClubGame], roster: Roster, first: int, second: int) -> str:
    """A table at which the two players (with those merged into them) both sat, or ""."""
    for game in games:
        ids = {roster.counting(int(key[1:])).id for key in game.players if key[0] == "p"}
        if {first, second} <= ids:
            return game.table_id
    return ""


def _unknown_club(club_id: object) -> UnknownClubError:
    shown = club_id.strip() if isinstance(club_id, str) else repr(club_id)
    return UnknownClubError(
        f"no club with id '{shown}'", key="refusal.club_unknown", params={"club": shown}
    )
