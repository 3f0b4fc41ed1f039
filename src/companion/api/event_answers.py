"""How an event's reads are answered: JSON bodies made once per version of the event (kept with
its read, `EventRead.encoded`), and the export streamed, never held whole: the JSON's tables
written a few at a time as they are read, the CSV a line at a time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from fastapi.responses import Response, StreamingResponse

from companion.api.deps import refusals, table_key
from companion.api.tables import download_disposition

if TYPE_CHECKING:
    from companion.ledger.event_book.service import EventBook


def json_bytes(content: Any) -> bytes:
    """JSON as `JSONResponse` writes it (compact, UTF-8, no NaN)."""
    return json.dumps(
        content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode()


def json_answer(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def export_response(book: EventBook, event_id: str, format: str) -> StreamingResponse:
    """The event's export (`format` json or csv). Everything that can refuse (an unknown event)
    is read before the first byte; then the answer is streamed."""
    key = table_key(event_id)
    with refusals():
        if format == "csv":
            name = book.event(event_id).name
            lines = book.export_csv_lines(event_id)
            return StreamingResponse(
                (line.encode() for line in lines),
                media_type="text/csv; charset=utf-8",
                headers={"content-disposition": download_disposition(key, name, "csv")},
            )
        head, seated = book.export_head(event_id)
    name = str(head["event"]["name"])
    return StreamingResponse(
        export_chunks(head, book.export_tables(event_id, seated)),
        media_type="application/json",
        headers={"content-disposition": download_disposition(key, name, "json")},
    )


def export_chunks(head: dict[str, Any], tables: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    """The event's export as JSON, its tables written as they come: the same document as
    `EventBook.export_json`'s."""
    opening = json_bytes(head)
    yield opening[:-1] + b',"tables":['
    for index, table in enumerate(tables):
        yield (b"," if index else b"") + json_bytes(table)
    yield b"]}"
