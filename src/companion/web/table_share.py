"""`GET /t/{id}/qr.svg`: the QR code of a table's read-only link, drawn on the server (segno).

Only the read-only link is drawn here: it holds nothing secret. The write link's QR code is
drawn in the browser that holds the token (`static/js/vendor/uqr.js`), so the token never
travels to the server in a URL, and so never lands in an access log.
"""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response

from companion.api.deps import call, ledger_for
from companion.ledger.state import table_key

router = APIRouter(include_in_schema=False)


def read_link(request: Request, table_id: str) -> str:
    return str(request.base_url).rstrip("/") + f"/t/{table_key(table_id)}"


def qr_svg(text: str) -> bytes:
    """`text` as a QR code in SVG (medium error correction, a quiet zone of four modules)."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out, kind="svg", scale=6, border=4, xmldecl=False, omitsize=True, light="#fff", title=text
    )
    return out.getvalue()


@router.get("/t/{table_id}/qr.svg")
async def read_link_qr(request: Request, table_id: str) -> Response:
    ledger = await ledger_for(request)
    await call(ledger.setup, table_id)  # 404 for an unknown table
    return Response(
        qr_svg(read_link(request, table_id)),
        media_type="image/svg+xml",
        headers={"cache-control": "public, max-age=3600"},
    )
