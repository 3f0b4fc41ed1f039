"""An event's live leaderboard: `GET /api/events/{id}/stream` (Server-Sent Events).

It follows the tables' notices (`companion.api.live`): one message each time any of the
event's tables records, or the organiser acts (a notice for `event:<id>`). Its `id` is the
event's *version*: the organiser's last action's number plus every table's last entry number,
which only grows; a client that reconnects after version v is told at once if the event has
moved on. The hub's part for events (`EventStreams`) learns which tables an event has when it
reads the event; a notice for a table it does not know (a round seated since) is looked up once
(`EventBook.event_of_table`), and a table of no event is remembered as such. Its limits,
heartbeats and lifetime are every stream's.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from companion.api.deps import TableRequestError, WholeQuery
from companion.api.live import HubPart, LiveHub, Watcher, logger
from companion.api.streams import STREAM_REFUSALS, open_stream, stream_start
from companion.ledger.state import table_key

if TYPE_CHECKING:
    from companion.ledger.repository import Ledger

router = APIRouter(prefix="/api/events", tags=["events"])

KNOWN_TABLES = 4096
"""Tables remembered as belonging to no event (so a notice for them is not looked up again)."""


@dataclass(frozen=True)
class EventState:
    """What the event's streams need of it: its version and its tables."""

    version: int
    tables: frozenset[str]
    actions: int = 0
    """The organiser's last action's number: what changed when it changes is the event itself
    (a round, a timer, a penalty), not only a table's hands."""


def read_event_state(ledger: Ledger, event_id: str) -> EventState:
    """The event's version (the organiser's last action's number plus each table's last entry
    number: it only grows, and every change moves it) and its tables. A refusal (no such event)
    raises as the ledger's own error."""
    from companion.ledger.event_book.service import EventBook

    # One reading transaction (`EventBook.progress`, the version pages and the API read too):
    # no table's record is replayed, nor its standings worked out, here.
    version, actions, tables = EventBook(ledger).progress(event_id, with_tables=True)
    return EventState(version, tables, actions)


class EventStreams(HubPart[EventState]):
    """The hub's part for events' leaderboards: each watched event's state, and which event
    each of their tables belongs to."""

    kind = "event"
    opening = "event {key} from version {sent}"

    def __init__(self, hub: LiveHub) -> None:
        super().__init__(hub)
        self.states: dict[str, EventState] = {}
        self.event_of: dict[str, str] = {}
        """The tables of the events someone watches: table id -> event id."""
        self.no_event: OrderedDict[str, None] = OrderedDict()
        self.looking_up: set[str] = set()
        self.first_reads: dict[str, asyncio.Future[EventState]] = {}
        """The read of an event the streams opening before any state of it share."""

    def noticed(self, key: str, seq: int | None) -> None:
        """Which watched event a notice concerns, if any (an organiser's action is announced
        as `event:<id>`, `event_book.store.event_notice`)."""
        if not self.watchers:
            return
        from companion.ledger.event_book.store import noticed_event

        organised = noticed_event(key)
        if organised is not None:
            self.changed(organised)
            return
        event_id = self.event_of.get(key)
        if event_id is not None:
            self.changed(event_id)
        elif key not in self.no_event and key not in self.looking_up:
            # A table seated since the event was read, or a table of no event: asked once.
            self.looking_up.add(key)
            self.hub.loop.create_task(self._look_up(key))

    async def _look_up(self, table_id: str) -> None:
        from companion.ledger.event_book.service import EventBook

        def event_of_table() -> str | None:
            return EventBook(self.hub.ledger).event_of_table(table_id)

        try:
            event_id = await self.hub.in_thread(event_of_table)
        except Exception:
            logger.warning("could not tell which event table %s belongs to", table_id)
            return
        finally:
            self.looking_up.discard(table_id)
        if event_id is None:
            self.no_event[table_id] = None
            while len(self.no_event) > KNOWN_TABLES:
                self.no_event.popitem(last=False)
        elif event_id in self.watchers:
            self.event_of[table_id] = event_id
            self.changed(event_id)

    async def read(self, key: str) -> EventState:
        state: EventState = await self.hub.in_thread(read_event_state, self.hub.ledger, key)
        return state

    async def follow(
        self, key: str, start: Callable[[EventState], int]
    ) -> tuple[Callable[[], None], AsyncIterator[bytes]]:
        """A new stream of an event, from the state the streams here already follow, or from
        the one read of it that the streams opening before any state share: a leaderboard's
        thousand streams opening at once cost one read of the event, not a thousand (issue 39:
        a read is every table's record). The stream is woken from before it takes that state,
        so no write after it is missed (its notice starts a read, which wakes every stream). A
        start that state refuses (it may be behind another process's) is asked of a read of
        its own."""
        watcher = Watcher(key)
        self.watchers.setdefault(key, set()).add(watcher)
        try:
            known = self.states.get(key)
            if known is None:
                shared = self.first_reads.get(key)
                if shared is None:
                    shared = asyncio.ensure_future(self.read(key))
                    self.first_reads[key] = shared
                    shared.add_done_callback(lambda _: self.first_reads.pop(key, None))
                known = await asyncio.shield(shared)
                if self.states.get(key) is not known:  # published once, not once a stream
                    self.publish(key, known)
            try:
                sent = start(known)
            except TableRequestError:
                known = await self.read(key)
                sent = start(known)
                self.publish(key, known)
        except BaseException:
            self.unregister(watcher)
            raise
        return partial(self.unregister, watcher), self.watch(watcher, sent)

    def publish(self, key: str, state: EventState) -> None:
        if key not in self.watchers:
            return
        known = self.states.get(key)
        if known is not None and known.version > state.version:
            return
        self.states[key] = state
        for table_id in state.tables:
            self.event_of[table_id] = key
            self.no_event.pop(table_id, None)
        self.wake(key)

    def forget(self, key: str) -> None:
        state = self.states.pop(key, None)
        for table_id in () if state is None else state.tables:
            self.event_of.pop(table_id, None)

    async def news(self, key: str, sent: int) -> AsyncIterator[tuple[bytes, int]]:
        """One message with the new version when the event has moved on since `sent`."""
        state = self.states.get(key)
        if state is None or state.version <= sent:
            return
        data = json.dumps({"version": state.version, "actions": state.actions})
        yield f"id: {state.version}\nevent: event\ndata: {data}\n\n".encode(), state.version


@router.get(
    "/{event_id}/stream",
    summary="The event's leaderboard as it changes (Server-Sent Events)",
    description="`text/event-stream`: one message each time any of the event's tables records "
    "(a hand, a void, an amendment) or the organiser acts (a round seated, a timer started, a "
    'penalty, a withdrawal): `id: <version>` and `data: {"version": <version>, "actions": '
    "<n>}`, `actions` being the organiser's last action's number (it moves only when the "
    "organiser acts). Read the leaderboard again on each message. Reconnecting with "
    "`Last-Event-ID` (or opening with `?after=<version>`) sends a message at once if the event "
    "has moved on since; a version beyond the event's is refused (409). Heartbeats, "
    "lifetime and limits as a table's stream. Needs only the "
    "event's id.",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "the stream"},
        404: {"description": "no event with this id"},
        409: {"description": "`Last-Event-ID` or `after` is beyond the event's version"},
        422: {"description": "`Last-Event-ID` or `after` is not a version number"},
        **STREAM_REFUSALS,
    },
)
async def stream_event(request: Request, event_id: str, after: WholeQuery = None) -> Any:
    start, said_by = stream_start(request, after)

    def sent_before(state: EventState) -> int:
        # A version the event never reached (another server's, or made up) would wait in
        # silence for news that may never come: refused as a table's stream refuses it.
        if start is not None and start > state.version:
            raise TableRequestError(
                f"{said_by} {start} is beyond this event's version ({state.version}): "
                "load the event again and follow it from there",
                409,
            )
        return state.version if start is None else start

    return await open_stream(
        request, lambda hub: hub.part(EventStreams).follow(table_key(event_id), sent_before)
    )
