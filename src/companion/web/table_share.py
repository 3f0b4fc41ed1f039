"""A table's links as other phones reach them, and `GET /t/{id}/qr.svg`, the QR code of its
read-only link, drawn on the server (segno).

The links a host's browser sees (`http://127.0.0.1:8000/...`) reach nobody else. `share_reach`
gives the address the links and their QR codes carry, and a warning when no other phone can
use it:

- `--public-url` (`COMPANION_PUBLIC_URL`): a server behind a name; its links use that name.
- a server listening on every address (`--host 0.0.0.0`) whose page was opened on a loopback
  address: the machine's address on its local network (`addresses.lan_address`), on the same port.
- a server listening on loopback only: the links as opened, and the share card says that
  other phones cannot reach them and what to run instead.

Only the read-only link is drawn here: it holds nothing secret. The write link's QR code is
drawn in the browser that holds the token (`static/js/vendor/uqr.js`), so the token never
travels to the server in a URL, and so never lands in an access log.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response

from companion.api.deps import call, ledger_for
from companion.api.security import WILDCARD_HOSTS, host_name
from companion.ledger.state import table_key
from companion.web import addresses
from companion.web.addresses import is_loopback, url_host

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True)
class Reach:
    """Where a table's links point, and why other phones may not reach them."""

    base: str
    """The links' start, no trailing slash: `http://192.168.1.20:8000`."""
    warning: str | None = None
    """A catalogue key (`table.share_loopback_only`, `table.share_no_network`), or None."""


def share_reach(request: Request) -> Reach:
    """The address a table's links carry for this request (see the module docstring). The app's
    `public_url` and `listen_host` (`create_app`) decide it; an app that was not told where it
    listens (tests, `uvicorn companion.api:create_app`) uses the address the page was opened on."""
    state = request.app.state
    public = getattr(state, "public_url", None)
    if public:
        return Reach(public)
    base = str(request.base_url).rstrip("/")
    listen = getattr(state, "listen_host", None)
    if listen is None:
        return Reach(base)
    listen = host_name(listen)
    if is_loopback(listen):
        return Reach(base, "table.share_loopback_only")
    if listen not in WILDCARD_HOSTS or not is_loopback(host_name(request.url.hostname or "")):
        return Reach(base)  # opened on an address others can use too
    lan = addresses.lan_address()
    if lan is None:
        return Reach(base, "table.share_no_network")
    return Reach(str(request.base_url.replace(hostname=url_host(lan))).rstrip("/"))


def read_link(request: Request, table_id: str) -> str:
    return f"{share_reach(request).base}/t/{table_key(table_id)}"


def qr_svg(text: str) -> bytes:
    """`text` as a QR code in SVG (medium error correction, a quiet zone of four modules)."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out, kind="svg", scale=6, border=4, xmldecl=False, omitsize=True, light="#fff", title=text
    )
    return out.getvalue()


def terminal_qr(text: str) -> str:
    """`text` as a QR code drawn in a terminal's characters (two rows of modules a line)."""
    out = io.StringIO()
    segno.make(text, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()


@router.get("/t/{table_id}/qr.svg")
async def read_link_qr(request: Request, table_id: str) -> Response:
    ledger = await ledger_for(request)
    await call(ledger.setup, table_id)  # 404 for an unknown table
    link = read_link(request, table_id)
    # Revalidated on every view: the link's address changes with the machine's network (a
    # laptop taken to another table), and the code must always match the link shown beside it.
    etag = f'"{hashlib.sha256(link.encode()).hexdigest()[:20]}"'
    headers = {"cache-control": "no-cache", "etag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(qr_svg(link), media_type="image/svg+xml", headers=headers)
