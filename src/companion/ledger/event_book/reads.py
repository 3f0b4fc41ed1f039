"""An event as it stands, kept by its version: its view and standings (and their JSON, and what
the API encodes of them), worked out once per version and read by every page, leaderboard and
API request after it (`EventBook.current`).

A read asks the database for the event's version (one statement) and answers with what is kept
for it; only a new version reads the event's rows and its tables (`tables.table_standings`,
which replays only the tables that changed). Requests that miss at the same moment wait for one
of them to work it out rather than each doing it. What is kept was read after its version was,
so it is at least that version; each ledger keeps the latest read of a few events (least
recently read first out).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.events.standings import Standings
from companion.ledger.event_book.records import Snapshot
from companion.ledger.event_book.tables import PerLedger
from companion.ledger.event_book.views import EventView
from companion.ledger.repository import Ledger

KEPT_READS = 16
"""Events whose latest read a ledger keeps."""


@dataclass(frozen=True)
class EventRead:
    """The event at one version: its view and standings, with their JSON."""

    version: int
    view: EventView
    board: Standings
    event_json: dict[str, Any]
    standings_json: dict[str, Any]
    snapshot: Snapshot
    """The event's rows it was read from (kept for the next version while no organiser's
    action moves the event: only its tables' hands changed)."""
    actions: int
    """The organiser's last action's number at this version."""
    _encoded: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)

    def encoded(self, name: str, make: Callable[[], bytes]) -> bytes:
        """What `make` encodes of this read (an API answer's body), made once per version."""
        found = self._encoded.get(name)
        if found is None:
            found = self._encoded[name] = make()
        return found


class _Reads:
    """One ledger's kept reads, by event id, and a lock per event for working one out."""

    def __init__(self) -> None:
        self.items: OrderedDict[str, EventRead] = OrderedDict()
        self.working: dict[str, threading.Lock] = {}
        self.lock = threading.Lock()

    def latest(self, event_id: str) -> EventRead | None:
        with self.lock:
            return self.items.get(event_id)

    def get(self, event_id: str, version: int) -> EventRead | None:
        with self.lock:
            found = self.items.get(event_id)
            if found is None or found.version != version:
                return None
            self.items.move_to_end(event_id)
            return found

    def put(self, event_id: str, read: EventRead) -> None:
        with self.lock:
            held = self.items.get(event_id)
            if held is None or held.version <= read.version:
                self.items[event_id] = read
            self.items.move_to_end(event_id)
            while len(self.items) > KEPT_READS:
                gone, _ = self.items.popitem(last=False)
                self.working.pop(gone, None)

    def working_on(self, event_id: str) -> threading.Lock:
        with self.lock:
            found = self.working.get(event_id)
            if found is None:
                found = self.working[event_id] = threading.Lock()
            return found


kept_reads = PerLedger(_Reads)


def current_read(
    ledger: Ledger,
    event_id: str,
    version: int,
    work_out: Callable[[EventRead | None], EventRead],
) -> EventRead:
    """The read kept for `version`, or the one `work_out` makes from the read kept before (or
    None), once however many ask."""
    reads = kept_reads(ledger)
    found = reads.get(event_id, version)
    if found is not None:
        return found
    with reads.working_on(event_id):
        found = reads.get(event_id, version)  # worked out while this request waited
        if found is not None:
            return found
        read = work_out(reads.latest(event_id))
        reads.put(event_id, read)
        return read
