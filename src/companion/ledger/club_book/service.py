"""The club service, `ClubBook`: a club made on the ledger, its roster kept, its tables and
events attached, and its games read back (`reads`) for the ratings, the stats and the pages.

Every roster action is one transaction that locks the club, checks the action against the
roster as it stands, writes its rows and its line in the club's record, and counts the club's
version one up; a refusal writes nothing."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from companion.clubs.ratings import RatingOrder
from companion.ledger.checks import check_storable, unstorable
from companion.ledger.club_book.errors import (
    ClubAccessError,
    ClubConflictError,
    ClubError,
)
from companion.ledger.club_book.games import family_of
from companion.ledger.club_book.reads import ClubReads, played_together
from companion.ledger.club_book.roster import (
    MAX_EMA_ID,
    MAX_NICKNAME,
    Roster,
    RosterPlayer,
    optional_text,
    refuse_taken,
    roster_name,
)
from companion.ledger.errors import LimitError, UnknownTableError
from companion.ledger.event_book.errors import UnknownEventRecordError
from companion.ledger.models import (
    ClubAliasRow,
    ClubAuditRow,
    ClubEventRow,
    ClubPlayerRow,
    ClubRow,
    ClubTableRow,
    EventEntryRow,
    EventRecordRow,
    TableRow,
)
from companion.ledger.repository import NewTable, hash_token, new_id
from companion.ledger.rows import now
from companion.ledger.state import MAX_TABLE_NAME, table_key
from companion.ledger.store import WRITE_ATTEMPTS
from companion.names import name_key


@dataclass(frozen=True)
class NewClub:
    id: str
    token: str
    """The organiser's token, shown once: only its SHA-256 is stored."""


@dataclass(frozen=True)
class Joined:
    """What an attachment or a table made in a club did to the roster: the names that joined
    it (new players) and those it already had."""

    joined: tuple[str, ...]
    known: tuple[str, ...]

    def to_json(self) -> dict[str, list[str]]:
        return {"joined": list(self.joined), "known": list(self.known)}


def rating_order(rating: str) -> RatingOrder:
    """The rating a club names, or a refusal that lists them."""
    for order in RatingOrder:
        if order.value == rating:
            return order
    ratings = ", ".join(order.value for order in RatingOrder)
    raise ClubError(
        f"a club's rating is one of {ratings}, not '{rating}'",
        key="refusal.club_rating",
        params={"ratings": ratings, "rating": str(rating)[:20]},
    )


class ClubBook(ClubReads):
    """Clubs on one ledger. Thread-safe: each call uses its own session."""

    # -- a club --------------------------------------------------------------------------------

    def create_club(
        self, name: str, rating: str = "openskill", *, private: bool = False, by: str = ""
    ) -> NewClub:
        check_storable(name, "a club's name")
        club_name = " ".join(name.split()) if isinstance(name, str) else ""
        if not club_name:
            raise ClubError("a club's name cannot be empty", key="refusal.club_name_empty")
        if len(club_name) > MAX_TABLE_NAME:
            raise LimitError(
                f"a club's name can have at most {MAX_TABLE_NAME} characters",
                key="refusal.club_name_long",
                params={"most": MAX_TABLE_NAME},
            )
        order = rating_order(rating)
        token = secrets.token_urlsafe(24)
        for _ in range(WRITE_ATTEMPTS):
            club_id = new_id()
            try:
                with self._guard(), self._session() as session, session.begin():
                    session.add(
                        ClubRow(
                            id=club_id,
                            name=club_name,
                            rating=order.value,
                            family=None,
                            token_hash=hash_token(token),
                            private=bool(private),
                            version=1,
                            created_at=now(),
                        )
                    )
                    session.flush()
                    details = {"name": club_name, "private": bool(private)}
                    _audit(session, club_id, "create", by, details)
                return NewClub(club_id, token)
            except IntegrityError:
                continue
        raise ClubError("could not find a free club id; try again")

    def verify_token(self, club_id: str, token: str) -> bool:
        """Whether `token` is the club's organiser token (constant-time comparison)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._club(session, club_id)
            return hmac.compare_digest(row.token_hash, hash_token(token))

    def check_token(self, club_id: str, token: str | None) -> None:
        """Refuse (403) anyone without the club's organiser token."""
        if token is None or unstorable(token) or not self.verify_token(club_id, token):
            raise ClubAccessError(
                "only the club's organiser token changes its roster",
                key="refusal.club_token",
            )

    def check_reader(self, club_id: str, token: str | None) -> bool:
        """Whether the club is private, once the reader may read it: a club that keeps its
        leaderboard, players' pages and exports to its organiser refuses (403) a reader without
        the organiser's token; a public club reads for everyone with its id (an unknown club is
        a 404 for everyone)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._club(session, club_id)
            private, token_hash = row.private, row.token_hash
        if not private:
            return False
        if (
            token is None
            or unstorable(token)
            or not hmac.compare_digest(token_hash, hash_token(token))
        ):
            raise ClubAccessError(
                "this club keeps its ratings and players' pages to its organiser: open them "
                "with the organiser's link",
                key="refusal.club_private",
            )
        return True

    def set_private(self, club_id: str, private: bool, *, by: str = "") -> bool:
        """Whether the club's leaderboard, players' pages and exports need the organiser's
        token from now on (recorded as `privacy`); answers the setting."""

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            club.private = private
            return {"private": private}

        return bool(self._write(club_id, "privacy", by, act)["private"])

    def check_attachable(self, club_id: str, profile: str) -> None:
        """Refuse, before anything is made, a table or event of `profile` the club would
        refuse: an unknown club, or one that rates another profile family."""
        with self._guard(), self._session() as session, session.begin():
            _refuse_family(self._club(session, club_id).family, profile)

    # -- the roster ----------------------------------------------------------------------------

    def add_player(
        self,
        club_id: str,
        name: str,
        *,
        nickname: str | None = None,
        ema_id: str | None = None,
        by: str = "",
    ) -> RosterPlayer:
        cleaned = roster_name(name)
        nick = optional_text(nickname, "a nickname", MAX_NICKNAME)
        ema = optional_text(ema_id, "an EMA id", MAX_EMA_ID)

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            refuse_taken(roster, cleaned)
            row = _new_player(session, club.id, cleaned)
            row.nickname, row.ema_id = nick, ema
            return {"player": row.id, "name": cleaned}

        return self._roster_action(club_id, "add", by, act)

    def rename_player(
        self, club_id: str, name: str, new_name: str, *, by: str = ""
    ) -> RosterPlayer:
        """The player called `name` is called `new_name` from now on; the old name still means
        them, so the games recorded under it stay theirs."""
        cleaned = roster_name(new_name, what="the new name")

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            player = roster.own(name)
            refuse_taken(roster, cleaned, allowed=player.id)
            row = session.get_one(ClubPlayerRow, player.id)
            before, row.name = row.name, cleaned
            if name_key(cleaned) not in roster.aliases:
                session.add(
                    ClubAliasRow(club_id=club.id, name_key=name_key(cleaned), player_id=row.id)
                )
            return {"player": row.id, "from": before, "to": cleaned}

        return self._roster_action(club_id, "rename", by, act)

    def merge_players(self, club_id: str, name: str, into: str, *, by: str = "") -> RosterPlayer:
        """Two entries of one person made one: `name`'s games count for `into` from now on. The
        organiser may undo it (`unmerge_player`) while no game has finished since."""
        # Read before the club is locked: reading its tables takes sessions of their own.
        finished = self.record(club_id).games
        games = len(finished)

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            merged, kept = roster.own(name), roster.own(into)
            if merged.merged_into is not None:
                raise ClubConflictError(
                    f"{merged.name} is already merged into another player",
                    key="refusal.club_merged_already",
                    params={"name": merged.name},
                )
            kept = roster.counting(kept.id)
            if kept.id == merged.id:
                raise ClubError(
                    f"{merged.name} cannot be merged into themself",
                    key="refusal.club_merge_self",
                    params={"name": merged.name},
                )
            together = played_together(finished, roster, merged.id, kept.id)
            if together:
                raise ClubConflictError(
                    f"{merged.name} and {kept.name} played at one table ({together}): they are "
                    "two people",
                    key="refusal.club_merge_together",
                    params={"name": merged.name, "into": kept.name, "table": together},
                )
            session.get_one(ClubPlayerRow, merged.id).merged_into = kept.id
            return {"player": merged.id, "into": kept.id, "games": games}

        return self._roster_action(club_id, "merge", by, act)

    def unmerge_player(self, club_id: str, name: str, *, by: str = "") -> RosterPlayer:
        """A merge undone, while no game of the club has finished since it."""
        games = len(self.record(club_id).games)  # before the club is locked, as for a merge

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            merged = roster.own(name)
            if merged.merged_into is None:
                raise ClubConflictError(
                    f"{merged.name} is not merged into anyone",
                    key="refusal.club_not_merged",
                    params={"name": merged.name},
                )
            merge = session.scalars(
                select(ClubAuditRow)
                .where(ClubAuditRow.club_id == club.id, ClubAuditRow.kind == "merge")
                .order_by(ClubAuditRow.seq.desc())
            ).first()
            if merge is None or merge.details.get("games") != games:
                raise ClubConflictError(
                    f"a game has finished since {merged.name} was merged: the merge stays",
                    key="refusal.club_unmerge_late",
                    params={"name": merged.name},
                )
            row = session.get_one(ClubPlayerRow, merged.id)
            into, row.merged_into = row.merged_into, None
            return {"player": merged.id, "from": into}

        return self._roster_action(club_id, "unmerge", by, act)

    # -- tables and events ---------------------------------------------------------------------

    def attach_table(self, club_id: str, table_id: str, *, by: str = "") -> Joined:
        """An existing table joins the club: its names are matched to the roster, new names
        join it. A table of another club, or of another profile family, is refused."""
        check_storable(table_id, "a table id")

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            table = session.get(TableRow, table_key(table_id))
            if table is None:
                raise UnknownTableError(
                    f"no table with id '{table_id.strip()}'",
                    key="refusal.club_table_unknown",
                    params={"table": table_id.strip()},
                )
            owner = session.get(ClubTableRow, table.id)
            _refuse_other_club(club.id, owner, table.id, "table")
            _take_family(club, table.profile)
            if owner is None:
                session.add(ClubTableRow(table_id=table.id, club_id=club.id))
            return {"table": table.id} | _join(session, club.id, roster, table_names(table))

        return self._attach(club_id, by, act)

    def attach_event(self, club_id: str, event_id: str, *, by: str = "") -> Joined:
        """An event joins the club: its players are matched to the roster, new names join, and
        every table it seats is the club's."""
        check_storable(event_id, "an event id")

        def act(session: Session, club: ClubRow, roster: Roster) -> dict[str, Any]:
            event = session.get(EventRecordRow, table_key(event_id))
            if event is None:
                raise UnknownEventRecordError(
                    f"no event with id {event_id.strip()!r}",
                    key="refusal.event_unknown",
                    params={"event": event_id.strip()},
                )
            owner = session.get(ClubEventRow, event.id)
            _refuse_other_club(club.id, owner, event.id, "event")
            _take_family(club, event.profile)
            if owner is None:
                session.add(ClubEventRow(event_id=event.id, club_id=club.id))
            names = session.scalars(
                select(EventEntryRow.name)
                .where(EventEntryRow.event_id == event.id)
                .order_by(EventEntryRow.position)
            )
            return {"event": event.id} | _join(session, club.id, roster, list(names))

        return self._attach(club_id, by, act)

    def create_table(
        self, club_id: str, profile: str, players: Sequence[str], **table: Any
    ) -> tuple[NewTable, Joined]:
        """A new table of the club (as `Ledger.create_table` makes one), made with the club's
        rows in one transaction: its names join the roster, or nothing is written."""
        for _ in range(WRITE_ATTEMPTS):
            row, new = self.ledger.table_row(profile, players, **table)

            def act(
                session: Session, club: ClubRow, roster: Roster, row: TableRow = row
            ) -> dict[str, Any]:
                _take_family(club, row.profile)
                session.add(row)
                session.flush()
                session.add(ClubTableRow(table_id=row.id, club_id=club.id))
                return {"table": row.id} | _join(session, club.id, roster, table_names(row))

            try:
                return new, self._attach(club_id, "", act)
            except IntegrityError:
                continue  # the table's id was taken meanwhile: another one
        raise ClubError("could not find a free table id; try again")

    # -- one roster action ---------------------------------------------------------------------

    def _attach(
        self, club_id: str, by: str, act: Callable[[Session, ClubRow, Roster], dict[str, Any]]
    ) -> Joined:
        details = self._write(club_id, "attach", by, act)
        return Joined(tuple(details["joined"]), tuple(details["known"]))

    def _roster_action(
        self,
        club_id: str,
        kind: str,
        by: str,
        act: Callable[[Session, ClubRow, Roster], dict[str, Any]],
    ) -> RosterPlayer:
        details = self._write(club_id, kind, by, act)
        return self.roster(club_id).players[details["player"]]

    def _write(
        self,
        club_id: str,
        kind: str,
        by: str,
        act: Callable[[Session, ClubRow, Roster], dict[str, Any]],
    ) -> dict[str, Any]:
        check_storable(by, "by (who decides)")
        with self._guard(), self._session() as session, session.begin():
            club = self._club(session, club_id, lock=True)
            details = act(session, club, self._roster(session, club.id))
            club.version += 1
            _audit(session, club.id, kind, by, details)
            return details


def table_names(table: TableRow) -> list[str]:
    return [player.name for player in table.players]


def _new_player(session: Session, club_id: str, name: str) -> ClubPlayerRow:
    row = ClubPlayerRow(club_id=club_id, name=name, joined_at=now())
    session.add(row)
    session.flush()  # its id, for the alias
    session.add(ClubAliasRow(club_id=club_id, name_key=name_key(name), player_id=row.id))
    return row


def _join(session: Session, club_id: str, roster: Roster, names: Iterable[str]) -> dict[str, Any]:
    """The names the roster lacks join it; those it has are matched (case-insensitively)."""
    joined: list[str] = []
    known: list[str] = []
    for name in names:
        if roster.find(name) is not None or name_key(name) in {name_key(n) for n in joined}:
            known.append(name)
            continue
        _new_player(session, club_id, roster_name(name))
        joined.append(name)
    session.flush()
    return {"joined": joined, "known": known}


def _take_family(club: ClubRow, profile: str) -> None:
    """The club's profile family: set by its first table or event, the same for every other."""
    _refuse_family(club.family, profile)
    club.family = family_of(profile)


def _refuse_family(family: str | None, profile: str) -> None:
    if family is not None and family != family_of(profile):
        raise ClubError(
            f"this club rates {family} games: a {profile} table or event is of the "
            f"{family_of(profile)} family, whose results do not add up with them",
            key="refusal.club_family",
            params={"family": family, "profile": profile, "other": family_of(profile)},
        )


def _refuse_other_club(
    club_id: str, owner: ClubTableRow | ClubEventRow | None, item_id: str, what: str
) -> None:
    if owner is not None and owner.club_id != club_id:
        raise ClubConflictError(
            f"the {what} {item_id} belongs to another club",
            key="refusal.club_other",
            params={"what": what, "id": item_id},
        )


def _audit(session: Session, club_id: str, kind: str, by: str, details: dict[str, Any]) -> None:
    last = session.scalar(select(func.max(ClubAuditRow.seq)).where(ClubAuditRow.club_id == club_id))
    session.add(
        ClubAuditRow(
            club_id=club_id,
            seq=(last or 0) + 1,
            kind=kind,
            by_name=by.strip(),
            details=details,
            created_at=now(),
        )
    )
