"""Addresses for the phones at the table: this machine's address on its local network, and the
checks `companion serve` and the share card share. No web stack: `companion table new` uses it."""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit

LAN_ADDRESS_ENV = "COMPANION_LAN_ADDRESS"
"""The local network address to put in the links instead of the one `lan_address` finds (a
machine on two networks, a VPN among them, may pick the one the phones are not on)."""
ROUTE_PROBE = ("192.0.2.1", 9)
"""An address outside every local network (TEST-NET-1, RFC 5737, never assigned): asking the
system for its route gives the address of the interface towards the outside world."""


def lan_address() -> str | None:
    """This machine's address on its local network, the one the phones at the table reach; None
    when it has none (no network, or only loopback).

    It is the source address the system would use towards `ROUTE_PROBE`: `connect()` on a UDP
    socket sends nothing (UDP has no handshake), it only picks the route and so binds the
    socket's local address, which `getsockname()` reads; the socket is closed unused, and no
    packet leaves the machine. Reading the interfaces' addresses instead would need a package or
    ioctls per system, and leave the choice among several interfaces (docker, VPN) to a guess;
    the route is the one the system itself would use. `COMPANION_LAN_ADDRESS` overrides it."""
    chosen = os.environ.get(LAN_ADDRESS_ENV, "").strip()
    if chosen:
        return chosen
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    parsed = ipaddress.ip_address(address)
    return None if parsed.is_loopback or parsed.is_unspecified else address


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or address, as `host_name` gives it) is this machine only."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_url(text: str) -> str:
    """`--public-url` checked: an http(s) URL with a host, no query or fragment; without its
    trailing slash. ValueError says what is wrong."""
    url = text.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{text!r} is not an http:// or https:// address with a host name")
    if parts.query or parts.fragment:
        raise ValueError(f"{text!r} has a query or a fragment: give the server's address only")
    return url


def url_host(address: str) -> str:
    """`address` as the host part of a URL (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address else address
