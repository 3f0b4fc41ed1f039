"""The event's live streams on a tournament's day (issue 39): the event's version read in one
transaction (the organiser's last action plus every table's last entry, as the streams count
it), and a crowd of streams opening on one event at once sharing one read of it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.api import event_stream
from companion.api.event_stream import EventStreams, read_event_state
from companion.api.live import LiveHub, last_seq
from companion.errors import CompanionError
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from event_day_helpers import seated_event, win
from own_loop import run_on_own_loop


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def test_the_version_is_the_last_action_and_every_tables_last_entry(book: EventBook) -> None:
    event_id = seated_event(book)
    one, two = (table.table for table in book.event(event_id).seated[0].tables)
    assert book.version(event_id) == 2  # created, seated
    assert book.progress(event_id, with_tables=True) == (2, 2, frozenset({one, two}))
    assert book.progress(event_id) == (2, 2, frozenset())
    win(book.ledger, one, "Ann", "Ben")
    win(book.ledger, one, "Cat", "Dan")
    win(book.ledger, two, "Eve", "Fay")
    book.adjust(event_id, "Ann", -1, "late")
    replayed = sum(last_seq(book.ledger.replay(table)) for table in (one, two))
    assert replayed == 3
    assert book.progress(event_id, with_tables=True) == (3 + 3, 3, frozenset({one, two}))
    assert book.version(event_id) == book.current(event_id).version == 6
    state = read_event_state(book.ledger, event_id)
    assert (state.version, state.tables, state.actions) == (6, frozenset({one, two}), 3)
    with pytest.raises(CompanionError) as refused:
        book.version("nope")
    assert refused.value.key == "refusal.event_unknown"


def test_streams_opening_at_once_share_one_read(
    book: EventBook, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = seated_event(book)
    reads: list[str] = []
    real = event_stream.read_event_state

    def counted(ledger: Ledger, key: str) -> event_stream.EventState:
        reads.append(key)
        return real(ledger, key)

    monkeypatch.setattr(event_stream, "read_event_state", counted)

    async def open_many() -> list[int]:
        hub = LiveHub(book.ledger, asyncio.get_running_loop())
        part = hub.part(EventStreams)
        opened = await asyncio.gather(
            *(part.follow(event_id, lambda state: state.version) for _ in range(50))
        )
        assert len(part.watchers[event_id]) == 50
        # Once a state is kept, a later stream starts from it without a read.
        late = await part.follow(event_id, lambda state: state.version)
        # A start the kept state refuses (a version beyond it) is asked of a read of its own.
        with pytest.raises(CompanionError):
            await part.follow(event_id, _beyond)
        for unregister, _ in [*opened, late]:
            unregister()
        assert event_id not in part.watchers
        hub.close()
        return [len(reads)]

    assert run_on_own_loop(open_many()) == [2]  # one shared read, then the refused start's own


def _beyond(state: event_stream.EventState) -> int:
    from companion.api.deps import TableRequestError

    raise TableRequestError(f"{state.version + 1} is beyond this event's version", 409)
