"""A table's live stream: `GET /api/tables/{id}/stream` (Server-Sent Events).

The hub's part for tables (`TableStreams`, in `companion.api.live`'s `LiveHub`) keeps, for each
table someone is watching, the latest replay of its record and that replay's messages. A notice
makes it read the record once (the ledger's cached replay plus the new entries), whatever the
number of open streams; the messages of a state are written once, in a thread, and shared by
every stream of the table (a message already written is reused while its entry is unchanged);
each stream then sends the messages it has not sent yet, from memory.

A stream sends each entry as `id: <seq>` and `data: <the entry as in /history>` (under SSE's
`event: table`). A client that reconnects with `Last-Event-ID` (the SSE header's name; here an
entry number) or opens with `?after=<seq>` gets exactly the entries after it. Its limits,
heartbeats and lifetime are every stream's (`companion.api.live`).
"""

from __future__ import annotations

import asyncio
import bisect
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from companion.api.deps import TableRequestError, WholeQuery
from companion.api.live import HubPart, LiveHub, last_seq
from companion.api.streams import STREAM_REFUSALS, open_stream, stream_start
from companion.ledger.state import table_key

if TYPE_CHECKING:
    from companion.ledger.replay import Replay

router = APIRouter(prefix="/api/tables", tags=["tables"])

CHUNK_BYTES = 64 * 1024
"""A backlog leaves in pieces of about this size: what waits for a slow client stays small."""


@dataclass(frozen=True, eq=False)
class _Messages:
    """The SSE messages of one state of a table's record, one per entry, in order."""

    replay: Replay
    seqs: tuple[int, ...]
    texts: tuple[bytes, ...]

    def pieces_after(self, after: int) -> Iterator[tuple[bytes, int]]:
        """The messages after entry `after`, joined into pieces of about `CHUNK_BYTES`, each
        with the last entry it holds; one at a time, so that a stream holds one piece."""
        start = bisect.bisect_right(self.seqs, after)
        while start < len(self.texts):
            end, size = start, 0
            while end < len(self.texts) and (end == start or size < CHUNK_BYTES):
                size += len(self.texts[end])
                end += 1
            yield b"".join(self.texts[start:end]), self.seqs[end - 1]
            start = end


def _write_messages(replayed: Replay, previous: _Messages | None) -> _Messages:
    """The messages of `replayed` (in a thread): an entry that is the very one `previous` had
    (the ledger extends a replay without copying its entries) keeps its message."""
    from companion.ledger.export import entry_json

    players = replayed.setup.players
    kept = previous if previous is not None and previous.replay.setup.players == players else None
    seqs: list[int] = []
    texts: list[bytes] = []
    for index, entry in enumerate(replayed.entries):
        seq = entry.stored.seq
        if kept is not None and index < len(kept.texts) and kept.replay.entries[index] is entry:
            text = kept.texts[index]
        else:
            data = json.dumps(entry_json(players, entry), separators=(",", ":"))
            text = f"id: {seq}\nevent: table\ndata: {data}\n\n".encode()
        seqs.append(seq)
        texts.append(text)
    return _Messages(replayed, tuple(seqs), tuple(texts))


class TableStreams(HubPart["Replay"]):
    """The hub's part for tables: each watched table's latest replay and its messages."""

    kind = "table"
    opening = "{key} from entry {sent}"

    def __init__(self, hub: LiveHub) -> None:
        super().__init__(hub)
        self.latest: dict[str, Replay] = {}
        self.messages: dict[str, _Messages] = {}
        self.writing: dict[str, tuple[Replay, asyncio.Task[_Messages]]] = {}

    def noticed(self, key: str, seq: int | None) -> None:
        known = self.latest.get(key)
        if seq is not None and known is not None and last_seq(known) >= seq:
            return
        self.changed(key)

    async def read(self, key: str) -> Replay:
        replayed: Replay = await self.hub.in_thread(self.hub.ledger.replay, key)
        return replayed

    def publish(self, key: str, state: Replay) -> None:
        known = self.latest.get(key)
        if known is state or (known is not None and last_seq(known) > last_seq(state)):
            return
        self.latest[key] = state
        self.wake(key)

    def forget(self, key: str) -> None:
        self.latest.pop(key, None)
        self.messages.pop(key, None)

    async def news(self, key: str, sent: int) -> AsyncIterator[tuple[bytes, int]]:
        """The entries after `sent`, in pieces of about `CHUNK_BYTES`."""
        latest = self.latest.get(key)
        if latest is None or last_seq(latest) <= sent:
            return
        written = await self.messages_of(key, latest)
        for piece in written.pieces_after(sent):
            yield piece

    async def messages_of(self, table_id: str, replayed: Replay) -> _Messages:
        """The messages of this state of the table, written once (in a thread) for every
        stream that asks."""
        known = self.messages.get(table_id)
        if known is not None and known.replay is replayed:
            return known
        writing = self.writing.get(table_id)
        if writing is None or writing[0] is not replayed:
            task = self.hub.loop.create_task(self._write(table_id, replayed, known))
            writing = (replayed, task)
            self.writing[table_id] = writing
        return await asyncio.shield(writing[1])

    async def _write(self, table_id: str, replayed: Replay, known: _Messages | None) -> _Messages:
        try:
            written: _Messages = await self.hub.in_thread(_write_messages, replayed, known)
        finally:
            if self.writing.get(table_id, (None,))[0] is replayed:
                del self.writing[table_id]
        current = self.messages.get(table_id)
        if table_id in self.watchers and (
            current is None or last_seq(current.replay) <= last_seq(replayed)
        ):
            self.messages[table_id] = written
        return written


@router.get(
    "/{table_id}/stream",
    summary="The table's entries as they are recorded (Server-Sent Events)",
    description="`text/event-stream`: each recorded entry, void and amendment as one message, "
    "`id: <seq>` and `data:` the entry as in `/history`. Reconnecting with `Last-Event-ID` "
    "(or opening with `?after=<seq>`) sends exactly the entries after that one first; without "
    "either, only entries recorded from now on. A comment line is sent as a heartbeat on an "
    "idle stream. After its lifetime (10 minutes) a stream sends `event: reconnect` and ends: "
    "open it again with the last entry received. Needs only the table's id (the read-only "
    "link).",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "the stream"},
        404: {"description": "no table with this id"},
        409: {"description": "`Last-Event-ID` or `after` is beyond the table's last entry"},
        422: {"description": "`Last-Event-ID` or `after` is not an entry number"},
        **STREAM_REFUSALS,
    },
)
async def stream_table(request: Request, table_id: str, after: WholeQuery = None) -> Any:
    start, said_by = stream_start(request, after)

    def sent_before(replayed: Replay) -> int:
        last = last_seq(replayed)
        if start is not None and start > last:
            raise TableRequestError(
                f"{said_by} {start} is beyond this table's last entry ({last}): "
                "load the table again and follow it from there",
                409,
            )
        return last if start is None else start

    return await open_stream(
        request, lambda hub: hub.part(TableStreams).follow(table_key(table_id), sent_before)
    )
