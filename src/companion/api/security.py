"""Safe by default: one ASGI middleware for every response, and the token helpers.

`SecurityMiddleware` wraps the whole app:

- **Body size.** A request body over `max_body` bytes is refused with 413 before any route sees
  it (by `Content-Length`, or by counting a streamed body).
- **Cross-site writes.** A POST, PUT, PATCH or DELETE whose `Origin` (or, without one,
  `Sec-Fetch-Site`) says it came from another site is refused with 403. Clients that are not
  browsers send neither header and are not affected; the JSON API's writes are authorised by
  Bearer tokens, which a browser never attaches to a cross-site request on its own.
- **CSRF tokens for forms.** Every browser gets a random `companion_csrf` cookie (SameSite=Strict,
  HttpOnly). Every write to a page (anything outside `/api/`), whatever its `Content-Type`
  (a form, `text/plain`, none), must carry the same value in its `csrf_token` field
  (double-submit), else 403: the page routes read a form from any body. Templates put it in with
  `{{ csrf_field() }}`. The JSON API takes JSON only (415 otherwise, from `read_json`) and its
  writes are authorised by Bearer tokens, so it has no form check. Multipart bodies are refused
  (415): Companion has no uploads.
- **Hosts.** With an allow-list (`allowed_hosts`), a request whose `Host` is not on it is
  refused with 400 before anything else: a page on another site that rebinds its own name to
  127.0.0.1 (DNS rebinding) cannot reach a server on loopback. IP literals are allowed when the
  server listens on every interface (`any_ip_host`): rebinding needs a name.
- **Headers.** A strict Content-Security-Policy (`default-src 'self'`, no inline script or style),
  `X-Content-Type-Options: nosniff`, `Referrer-Policy`, `X-Frame-Options: DENY` and friends.
- **No stack traces.** An exception that escapes the app becomes a plain 500 JSON message (the
  traceback goes to the server log only).

`tokens_equal` and `authorize` are what token-protected endpoints (the tables) use: constant-time
comparison of a presented Bearer token with the stored token or its digest.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import sys
from collections.abc import Iterable, MutableMapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fastapi import HTTPException, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("companion.api")

RETRY_AFTER_SECONDS = 5
"""What a 503 of the ledger (the database unreachable or full, the table kept busy) asks a client
to wait before it sends the same write again, with its key (`Retry-After`)."""


POOL_DRY = "the database is busy (every connection is in use): try again in a few seconds"


def pool_ran_dry(error: Exception) -> bool:
    """Whether `error` is SQLAlchemy's pool timeout (every connection busy past the pool's
    wait): a 503 for now, as the ledger's other database troubles are, never a 500. Looked up
    only if SQLAlchemy is loaded: the calculator alone never loads the database stack."""
    found = sys.modules.get("sqlalchemy.exc")
    return found is not None and isinstance(error, found.TimeoutError)


MAX_BODY = 64 * 1024
"""The default request body limit in bytes."""
CSRF_COOKIE = "companion_csrf"
CSRF_FIELD = "csrf_token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
API_PREFIX = "/api/"
"""The JSON API: JSON bodies only, writes authorised by Bearer tokens (no forms, no CSRF field)."""
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
)


# ---------------------------------------------------------------------------------------------
# Tokens


def new_token() -> str:
    """A fresh random secret (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """The SHA-256 hex digest of a token, for storing instead of the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def tokens_equal(presented: str, expected: str) -> bool:
    """Compare two secrets in constant time (for their length)."""
    return hmac.compare_digest(presented.encode(), expected.encode())


def bearer_token(request: Request) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None without one."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authorize(request: Request, *, token: str | None = None, digest: str | None = None) -> None:
    """Refuse the request unless it carries the expected Bearer token.

    Pass the stored `token`, or its `digest` (`token_digest`). No token presented: 401 with
    `WWW-Authenticate: Bearer`. A wrong one: 403. The comparison is constant-time.
    """
    if (token is None) == (digest is None):
        raise ValueError("pass exactly one of token and digest")
    presented = bearer_token(request)
    if presented is None:
        raise HTTPException(
            status_code=401,
            detail="this needs the table's token: send Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if digest is not None:
        matches = tokens_equal(token_digest(presented), digest)
    else:
        assert token is not None
        matches = tokens_equal(presented, token)
    if not matches:
        raise HTTPException(status_code=403, detail="the token does not match this table")


def csrf_token(request: Request) -> str:
    """The CSRF token of this browser (set by the middleware), for a form's hidden field."""
    token = request.scope.get("state", {}).get("csrf_token")
    return token if isinstance(token, str) else ""


# ---------------------------------------------------------------------------------------------
# Hosts


def host_name(host: str) -> str:
    """The name or address of a `Host` header value, without its port or IPv6 brackets."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def default_allowed_hosts(bind_host: str, extra: Iterable[str] = ()) -> tuple[list[str], bool]:
    """The hosts a server bound to `bind_host` answers for: that host, localhost and the loopback
    addresses, and `extra` (`--allowed-host`); and whether any IP literal is allowed (a server
    listening on every interface is reached by whatever address the network gives it)."""
    hosts = [host_name(bind_host), *LOCAL_HOSTS, *(host_name(host) for host in extra)]
    wildcard = host_name(bind_host) in WILDCARD_HOSTS
    return [host for host in dict.fromkeys(hosts) if host], wildcard


# ---------------------------------------------------------------------------------------------
# The middleware


Headers = dict[bytes, bytes]
"""A request's headers by (lower-case) name, each the first of its name."""


def _headers(scope: Scope) -> Headers:
    # Reversed, so that the first of a repeated name is the one kept.
    return dict(reversed(list(scope.get("headers", ()))))


def _header(headers: Headers, name: bytes) -> str | None:
    value = headers.get(name)
    return None if value is None else value.decode("latin-1")


def _cookie(headers: Headers, name: str) -> str | None:
    header = _header(headers, b"cookie")
    if not header:
        return None
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _same_origin(origin: str, host: str | None, trusted: Iterable[str]) -> bool:
    if origin in trusted:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


async def _json_response(
    send: Send, status: int, message: str, extra: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *SECURITY_HEADERS,
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _TooLargeError(Exception):
    pass


class _DisconnectedError(Exception):
    """The client disconnected before its body was complete: never hand a partial body on."""


class SecurityMiddleware:
    """See the module docstring. `trusted_origins` are extra origins allowed to write
    (`https://scores.example`), for a reverse proxy that rewrites the Host header."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY,
        trusted_origins: Iterable[str] = (),
        allowed_hosts: Iterable[str] | None = None,
        any_ip_host: bool = False,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.trusted_origins = frozenset(origin.rstrip("/") for origin in trusted_origins)
        listed = None if allowed_hosts is None else {host_name(h) for h in allowed_hosts}
        self.allowed_hosts = None if listed is None or "*" in listed else frozenset(listed)
        self.any_ip_host = any_ip_host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        headers = _headers(scope)
        if not self._host_allowed(headers):
            await _json_response(send, 400, "this server does not answer for that host name")
            return
        set_cookie = self._csrf_state(scope, headers)

        length = _header(headers, b"content-length")
        if length is not None and not self._length_within(length):
            await _json_response(send, 413, self._too_large())
            return

        if method in UNSAFE_METHODS:
            refusal = self._cross_site(headers)
            if refusal:
                await _json_response(send, 403, refusal)
                return
            try:
                body = await self._read_body(receive)
            except _TooLargeError:
                await _json_response(send, 413, self._too_large())
                return
            except _DisconnectedError:
                return  # the client went away (or was cut off) mid-body: nothing to answer
            refusal_status, refusal = self._form_check(scope, headers, body)
            if refusal:
                await _json_response(send, refusal_status, refusal)
                return
            receive = _replay(body, receive)

        response_started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
                headers = list(message.get("headers", []))
                present = {key.lower() for key, _ in headers}
                headers.extend(item for item in SECURITY_HEADERS if item[0] not in present)
                if set_cookie:
                    headers.append((b"set-cookie", set_cookie.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as error:
            if pool_ran_dry(error):
                # For now, not for the request: a 503 with Retry-After, never a 500.
                logger.warning("database pool ran dry on %s %s", method, scope.get("path"))
                if not response_started:
                    retry = [(b"retry-after", str(RETRY_AFTER_SECONDS).encode())]
                    await _json_response(send, 503, POOL_DRY, retry)
                return
            logger.exception("unexpected error on %s %s", method, scope.get("path"))
            if not response_started:
                await _json_response(send, 500, "Companion hit an unexpected error")

    def _host_allowed(self, headers: Headers) -> bool:
        if self.allowed_hosts is None:
            return True
        host = host_name(_header(headers, b"host") or "")
        return host in self.allowed_hosts or (self.any_ip_host and is_ip_literal(host))

    def _length_within(self, length: str) -> bool:
        """Whether a `Content-Length` is a number of bytes within the limit. ASCII digits only,
        and few of them: `int` would read `٣` and take a 5,000-digit string as a crash; an
        unreadable length cannot vouch for the body's size, so it counts as over the limit."""
        length = length.strip()
        if not (length.isascii() and length.isdigit()) or len(length) > len(str(self.max_body)):
            return False
        return int(length) <= self.max_body

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_body // 1024} KiB"

    def _csrf_state(self, scope: Scope, headers: Headers) -> str | None:
        """Put this browser's CSRF token in the request state; the Set-Cookie value when new."""
        cookie = token = _cookie(headers, CSRF_COOKIE)
        fresh = None
        if not token or len(token) < 32 or len(token) > 128:
            token = new_token()
            secure = "; Secure" if scope.get("scheme") == "https" else ""
            fresh = f"{CSRF_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict{secure}"
        state: MutableMapping[str, Any] = scope.setdefault("state", {})
        state["csrf_token"] = token
        state["csrf_cookie"] = cookie
        return fresh

    def _cross_site(self, headers: Headers) -> str | None:
        origin = _header(headers, b"origin")
        host = _header(headers, b"host")
        if origin is not None:
            if origin == "null" or not _same_origin(origin, host, self.trusted_origins):
                return "cross-site request refused"
            return None
        fetch_site = _header(headers, b"sec-fetch-site")
        if fetch_site is not None and fetch_site not in ("same-origin", "none"):
            return "cross-site request refused"
        return None

    def _form_check(self, scope: Scope, headers: Headers, body: bytes) -> tuple[int, str | None]:
        content_type = (_header(headers, b"content-type") or "").split(";", 1)[0].strip().lower()
        if content_type == "multipart/form-data":
            return 415, "Companion takes no uploads: send forms URL-encoded or requests as JSON"
        if str(scope.get("path", "")).startswith(API_PREFIX):
            return 200, None  # JSON only there (read_json answers 415 to anything else)
        # A page reads its form from any body (text/plain, no type at all): check them all.
        cookie = scope["state"].get("csrf_cookie")
        fields = parse_qs(body.decode("latin-1"), keep_blank_values=True)
        sent = fields.get(CSRF_FIELD, [""])[0]
        if not cookie or not sent or not tokens_equal(sent, cookie):
            return 403, "the form's security token is missing or out of date: reload the page"
        return 200, None

    async def _read_body(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _DisconnectedError
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise _TooLargeError
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the buffered body once, then waits on the real one."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def read_form(body: bytes) -> dict[str, str]:
    """A URL-encoded form body as a dict of first values (no python-multipart needed)."""
    fields = parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True)
    return {name: values[0] for name, values in fields.items()}
