"""Seat fixes after hands are recorded (issue 39): players who sat in the wrong seats. The
organiser swaps two players of a table, or gives its four in their seat order; the ledger
table's players are set to the order fixed, so its whole record is replayed with them (every
hand recorded by seat is theirs from the first), the standings follow, and the organiser's
record says who fixed what and when."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from companion.ledger.event_book.errors import EventError
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.store import EventStore
from companion.ledger.event_book.views import AuditEntry
from companion.ledger.models import EventTableRow, PlayerRow, TableRow
from companion.names import name_key


class SeatFixError(EventError):
    """A seat fix that names players who are not the table's, or changes nothing."""


def table_of(snapshot: Snapshot, round_number: int | None, number: int) -> EventTableRow:
    """Table `number` of round `round_number` (None: the latest seated round)."""
    if round_number is None:
        round_number = len(snapshot.rounds)
    for table in snapshot.tables:
        if table.round == round_number and table.number == number:
            return table
    raise SeatFixError(
        f"round {round_number} has no table {number}",
        key="refusal.day_no_table",
        params={"round": round_number, "number": number},
    )


def _check_at_table(snapshot: Snapshot, table: EventTableRow, name: str) -> str:
    """The player's name as entered, refused unless they sit at `table`."""
    entered = snapshot.entrant(name).name
    if entered in table.players:
        return entered
    for other in snapshot.tables:
        if other.round == table.round and entered in other.players:
            raise SeatFixError(
                f"{entered} plays at table {other.number} of round {table.round}, not table "
                f"{table.number}: only players of one table swap seats",
                key="refusal.day_swap_other_table",
                params={
                    "player": entered,
                    "table": other.number,
                    "round": table.round,
                    "number": table.number,
                },
            )
    raise SeatFixError(
        f"{entered} is not seated in round {table.round}",
        key="refusal.day_swap_not_seated",
        params={"player": entered, "round": table.round},
    )


def fixed_order(
    snapshot: Snapshot,
    table: EventTableRow,
    players: Sequence[str] | None,
    order: Sequence[str] | None,
) -> list[str]:
    """The table's players in their seats once fixed: two swapped, or all of them (three or
    four) as given."""
    before = list(table.players)
    seats = len(before)
    if players is not None:
        if len(players) != 2:
            raise SeatFixError(
                f"a swap names two players; got {len(players)}",
                key="refusal.day_swap_two",
                params={"count": len(players)},
            )
        first, second = (_check_at_table(snapshot, table, name) for name in players)
        if name_key(first) == name_key(second):
            raise SeatFixError(
                f"{first} cannot swap seats with themselves",
                key="refusal.day_swap_same",
                params={"player": first},
            )
        after = list(before)
        i, j = after.index(first), after.index(second)
        after[i], after[j] = after[j], after[i]
        return after
    given = [_check_at_table(snapshot, table, name) for name in order or ()]
    if len(given) != seats or len({name_key(name) for name in given}) != seats:
        raise SeatFixError(
            f"a seat order names the table's {seats} players once each, East first",
            key="refusal.day_order_players",
            params={"most": seats},
        )
    if given == before:
        raise SeatFixError(
            "the players already sit in that order: nothing to fix",
            key="refusal.day_order_same",
        )
    return given


class EventSwaps(EventStore):
    """The part of `EventBook` that fixes a table's seats."""

    def fix_seats(
        self,
        event_id: str,
        number: int,
        *,
        round_number: int | None = None,
        players: Sequence[str] | None = None,
        order: Sequence[str] | None = None,
        by: str = "",
    ) -> AuditEntry:
        """Swap two `players` of table `number` (of `round_number`, by default the latest
        seated round), or seat its four in `order` (East first); one of the two."""
        if (players is None) == (order is None):
            raise SeatFixError(
                "a seat fix names two players to swap, or the four in their seat order",
                key="refusal.day_swap_what",
            )

        def act(session: Session, snapshot: Snapshot) -> dict[str, Any]:
            table = table_of(snapshot, round_number, number)
            before = list(table.players)
            after = fixed_order(snapshot, table, players, order)
            # The ledger table locked as a hand's write locks it: no hand lands between the
            # look and the players' new seats. Its rows replaced whole: a name is unique at a
            # table, so seats cannot be renamed one by one.
            session.scalars(
                select(TableRow.id).where(TableRow.id == table.table_id).with_for_update()
            ).all()
            session.execute(delete(PlayerRow).where(PlayerRow.table_id == table.table_id))
            session.execute(
                insert(PlayerRow),
                [
                    {"table_id": table.table_id, "seat": seat, "name": name}
                    for seat, name in enumerate(after)
                ],
            )
            table.players = after
            return {
                "round": table.round,
                "details": {
                    "table": table.number,
                    "table_id": table.table_id,
                    "before": before,
                    "after": after,
                },
            }

        return self._write(event_id, "swap", act, by)
