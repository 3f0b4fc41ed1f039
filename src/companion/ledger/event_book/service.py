"""The event service, `EventBook`: an event made on the ledger, read as it stands, and each part
of running it (`rounds`, `unseat`, `players`, `leaderboard`, `access`), one class for the API, the
command line and the pages."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from companion.events.plan import Entrant, SeatingPlan
from companion.ledger.checks import check_storable, unstorable
from companion.ledger.errors import LimitError
from companion.ledger.event_book.access import EventAccess
from companion.ledger.event_book.checks import (
    FIRST_ROUNDS,
    LATER_ROUNDS,
    LEFTOVERS,
    MAX_EVENT_PLAYERS,
    MAX_EVENT_ROUNDS,
    MAX_SEED,
    checked_name,
    checked_text,
    mode_of,
    too_many_players,
)
from companion.ledger.event_book.ending import EventEndings
from companion.ledger.event_book.errors import EventError
from companion.ledger.event_book.leaderboard import EventLeaderboard
from companion.ledger.event_book.players import EventPlayers
from companion.ledger.event_book.records import audit_row
from companion.ledger.event_book.reports import EventReports
from companion.ledger.event_book.rounds import EventRounds
from companion.ledger.event_book.swap import EventSwaps
from companion.ledger.event_book.timer import EventTimers
from companion.ledger.event_book.unseat import EventUnseat
from companion.ledger.event_book.views import NewEvent
from companion.ledger.models import EventEntryRow, EventRecordRow, EventTableRow
from companion.ledger.repository import hash_token, new_id
from companion.ledger.rows import now
from companion.ledger.state import MAX_TABLE_NAME, new_setup, table_key
from companion.ledger.store import WRITE_ATTEMPTS
from companion.rules import get_profile

_PLACEHOLDERS = ("East", "South", "West", "North")
"""Names a table's setup is checked with before the event has seated anyone."""


class EventBook(
    EventRounds,
    EventTimers,
    EventSwaps,
    EventEndings,
    EventReports,
    EventUnseat,
    EventPlayers,
    EventLeaderboard,
    EventAccess,
):
    """Events on one ledger. Thread-safe: each call uses its own session, and the tables are
    the ledger's own (their writes, streams and corrections are the ledger's)."""

    def create_event(
        self,
        name: str,
        profile: str,
        options: Mapping[str, Any] | None,
        players: Sequence[str | Entrant],
        rounds: int,
        *,
        seed: int | None = None,
        first_round: str = "random",
        later_rounds: str = "no-repeats",
        leftover: str | None = None,
        hands: int | None = None,
        table_rounds: int | None = None,
        by: str = "",
    ) -> NewEvent:
        """A new event and its organiser's token. Its tables will play `profile` with
        `options` (and `hands` or `table_rounds` each, as a table plans them)."""
        # Not `_checked_text`: its bound is a reason's (200), past the 60 of a name.
        check_storable(name, "an event's name")
        event_name = name.strip()
        if not event_name:
            raise EventError("an event's name cannot be empty", key="refusal.event_name_empty")
        if len(event_name) > MAX_TABLE_NAME:
            raise LimitError(
                f"an event's name can have at most {MAX_TABLE_NAME} characters",
                key="refusal.event_name_long",
                params={"most": MAX_TABLE_NAME},
            )
        check_storable(dict(options or {}), "an option")
        # The tables' own checks, before anyone is seated: profile, options, game length.
        seats = len(get_profile(profile).seats)  # tables of three for sanma
        setup = new_setup(profile, _PLACEHOLDERS[:seats], options, hands, "", table_rounds)
        if len(players) > MAX_EVENT_PLAYERS:
            raise too_many_players()
        if rounds > MAX_EVENT_ROUNDS:
            raise LimitError(
                f"an event can have at most {MAX_EVENT_ROUNDS} rounds",
                key="refusal.event_many_rounds",
                params={"most": MAX_EVENT_ROUNDS},
            )
        for player in players:
            checked_name(player if isinstance(player, str) else player.name)
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not 0 <= seed <= MAX_SEED:
            # The largest seed as text: past 2^53 a page's script would round the number.
            raise EventError(
                f"a seed is a whole number from 0 to {MAX_SEED}",
                key="refusal.event_seed",
                params={"most": str(MAX_SEED)},
            )
        plan = SeatingPlan.of(
            players,
            rounds,
            seed=seed,
            first_round=mode_of(first_round, FIRST_ROUNDS, "first_round"),
            later_rounds=mode_of(later_rounds, LATER_ROUNDS, "later_rounds"),
            leftover=None if leftover is None else mode_of(leftover, LEFTOVERS, "leftover"),
            table_size=seats,
        )
        by = checked_text(by, "by (who decides)", "refusal.event_by", required=False)
        token = secrets.token_urlsafe(24)
        for _ in range(WRITE_ATTEMPTS):
            event_id = new_id()
            try:
                with self._guard(), self._session() as session, session.begin():
                    session.add(
                        EventRecordRow(
                            id=event_id,
                            name=event_name,
                            profile=setup.profile,
                            options=dict(setup.options),
                            table_hands=setup.planned_hands,
                            table_rounds=setup.planned_rounds,
                            rounds=rounds,
                            seed=seed,
                            first_round=first_round,
                            later_rounds=later_rounds,
                            leftover=leftover,
                            token_hash=hash_token(token),
                            created_at=now(),
                        )
                    )
                    session.flush()  # the event's row before the rows that refer to it
                    session.add_all(
                        EventEntryRow(
                            event_id=event_id,
                            position=position,
                            name=entry.name,
                            joins=entry.joins,
                            withdraws_after=entry.withdraws_after,
                        )
                        for position, entry in enumerate(plan.players)
                    )
                    session.flush()
                    details = {"players": [entry.name for entry in plan.players], "rounds": rounds}
                    session.add(audit_row(session, event_id, "create", by, {"details": details}))
                return NewEvent(event_id, token)
            except IntegrityError:
                continue
        raise EventError("could not find a free event id; try again")

    def event_of_table(self, table_id: str) -> str | None:
        """The event a ledger table was seated by, or None for a table of its own."""
        if unstorable(table_id):  # no table has such an id
            return None
        with self._guard(), self._session() as session, session.begin():
            return session.scalars(
                select(EventTableRow.event_id).where(EventTableRow.table_id == table_key(table_id))
            ).one_or_none()
