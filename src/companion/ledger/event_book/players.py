"""An event's field as it changes: a late entry, a withdrawal (a swap is one after the other).
Each change is checked by the seating against the rounds still to seat."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from companion.events.plan import Entrant, UnevenFieldError
from companion.ledger.event_book.checks import MAX_EVENT_PLAYERS, checked_name, too_many_players
from companion.ledger.event_book.errors import EventError, RoundOrderError
from companion.ledger.event_book.records import Snapshot, entries_of
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.views import EventPlayer
from companion.ledger.models import EventEntryRow
from companion.names import clean_name


class EventPlayers(EventStore):
    """The part of `EventBook` that enters and withdraws players."""

    def add_player(
        self, event_id: str, name: str, joins: int, *, by: str = "", key: str | None = None
    ) -> EventPlayer:
        """A late entry: `name` plays from round `joins` on (a round not seated yet); `key`
        as a table's writes take one."""
        checked_name(name)
        name = clean_name(name)

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            seated = len(snapshot.rounds)
            if joins <= seated:
                raise RoundOrderError(
                    f"round {seated} is already seated: a late entry joins in round "
                    f"{seated + 1} or later",
                    key="refusal.event_join_seated",
                    params={"round": seated, "next": seated + 1},
                )
            if len(snapshot.entries) >= MAX_EVENT_PLAYERS:
                raise too_many_players()
            _check_change(snapshot, [*entries_of(snapshot.entries), Entrant(name, joins)])
            position = max((entry.position for entry in snapshot.entries), default=-1) + 1
            session.add(
                EventEntryRow(
                    event_id=snapshot.record.id, position=position, name=name, joins=joins
                )
            )
            return {"player": name, "round": joins}

        audit = self._write(
            event_id, "join", act, by, key=key, asked={"name": name, "joins": joins}
        )
        if audit.duplicate:
            return self._entrant_now(event_id, name)
        return EventPlayer(name, joins, None)

    def withdraw(
        self,
        event_id: str,
        player: str,
        after_round: int,
        *,
        by: str = "",
        key: str | None = None,
    ) -> EventPlayer:
        """`player` plays up to round `after_round` and no more; they stay on the leaderboard
        with what they played. `key` as a table's writes take one."""
        found: list[EventPlayer] = []

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            entry = snapshot.entrant(player)
            if entry.withdraws_after is not None:
                raise EventError(
                    f"{entry.name} has already withdrawn (after round {entry.withdraws_after})",
                    key="refusal.event_already_withdrawn",
                    params={"player": entry.name, "round": entry.withdraws_after},
                )
            seated = [
                table.round
                for table in snapshot.tables
                if entry.name in table.players and table.round > after_round
            ]
            if seated:
                raise RoundOrderError(
                    f"{entry.name} is seated in round {seated[0]}: withdraw after round "
                    f"{seated[-1]} or later",
                    key="refusal.event_withdraw_seated",
                    params={"player": entry.name, "first_round": seated[0], "round": seated[-1]},
                )
            if not 0 <= after_round < snapshot.record.rounds:
                raise EventError(
                    f"a player withdraws after one of rounds 0 to {snapshot.record.rounds - 1}; "
                    f"got {after_round}",
                    key="refusal.event_withdraw_round",
                    params={"round": after_round, "last": snapshot.record.rounds - 1},
                )
            changed = [
                replace(item, withdraws_after=after_round) if item.name == entry.name else item
                for item in entries_of(snapshot.entries)
            ]
            _check_change(snapshot, changed)
            entry.withdraws_after = after_round
            found.append(EventPlayer(entry.name, entry.joins, after_round))
            return {"player": entry.name, "round": after_round}

        asked = {"player": player, "after_round": after_round}
        audit = self._write(event_id, "withdraw", act, by, key=key, asked=asked)
        if audit.duplicate:
            return self._entrant_now(event_id, audit.player or player)
        return found[0]


def _check_change(snapshot: Snapshot, entries: Sequence[Entrant]) -> None:
    """The seating's checks of a changed field (names, rounds, a round too few), all but an
    uneven field: a swap is a withdrawal and a late entry, one after the other, and the field
    between the two is uneven. The event then says so (`EventView.problem`), and seating the
    round is refused with the seating's message until the field is whole again."""
    with suppress(UnevenFieldError):
        snapshot.plan(entries)
