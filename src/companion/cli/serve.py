"""`companion serve`: run the web app and HTTP API with uvicorn (`companion.api.server`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from companion.cli.common import DEFAULT_PORT, PUBLIC_URL_ENV, seconds, whole_number


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `serve` subcommand to the command line's subcommands."""
    parser = commands.add_parser(
        "serve",
        help="run the web app and HTTP API (the calculator is at /, the API reference at /docs)",
        description="Serve Companion's web app and HTTP API. Open the printed address in a "
        "browser. For the phones at the table, serve on --host 0.0.0.0 (make table-night): "
        "it prints the machine's network address and its QR code, and the table links carry it.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument(
        "--port",
        type=whole_number,
        default=DEFAULT_PORT,
        help=f"port to listen on ({DEFAULT_PORT})",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address the phones use, for a server behind a name (https://mahjong.example): "
        "the table links and QR codes carry it (default: COMPANION_PUBLIC_URL, else the "
        "machine's network address when --host is 0.0.0.0)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the ledger's database: a SQLite path or URL, or a PostgreSQL URL "
        "(default: COMPANION_DATABASE_URL, else a SQLite file in the user's data directory)",
    )
    public = parser.add_argument_group(
        "a public server", "limits and trust for a server others can reach (docs/deploy.md)"
    )
    public.add_argument(
        "--workers", type=whole_number, default=1, metavar="N", help="worker processes (1)"
    )
    public.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers for, besides the --host address, localhost and "
        "127.0.0.1 (repeat it; '*' answers any: DNS rebinding can then reach it)",
    )
    public.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="reverse proxies (comma-separated addresses, or '*') whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default: none are)",
    )
    public.add_argument(
        "--max-connections",
        type=whole_number,
        default=2048,
        metavar="N",
        help="open connections per process; more are refused with 503 (2048)",
    )
    public.add_argument(
        "--header-timeout",
        type=seconds,
        default=10.0,
        metavar="S",
        help="seconds a client has to send a request's headers (10)",
    )
    public.add_argument(
        "--body-timeout",
        type=seconds,
        default=30.0,
        metavar="S",
        help="seconds a client has to send a request's body (30)",
    )
    public.add_argument(
        "--keep-alive",
        type=seconds,
        default=5.0,
        metavar="S",
        help="seconds an idle connection is kept open between requests (5)",
    )
    public.add_argument(
        "--create-limit",
        type=rate_text,
        default="120/3600",
        metavar="N/S",
        help="tables one client address may create: N at once, N per S seconds after "
        "(120/3600; 'off')",
    )
    public.add_argument(
        "--write-limit",
        type=rate_text,
        default="240/60",
        metavar="N/S",
        help="writes to one table: N at once, N per S seconds after (240/60; 'off')",
    )
    public.add_argument(
        "--seat-limit",
        type=rate_text,
        default="6000/86400",
        metavar="N/S",
        help="tables events' seating may create for one client address: N at once, N per S "
        "seconds after (6000/86400: a full event of 400 players and 40 rounds is 4,000; 'off')",
    )
    public.add_argument(
        "--read-limit",
        type=rate_text,
        default="1200/60",
        metavar="N/S",
        help="reads of events' pages, standings and exports by one client address: N at once, "
        "N per S seconds after (1200/60; an export counts 20; 'off')",
    )
    parser.set_defaults(handler=_serve_command)


def rate_text(text: str) -> str:
    """An argparse type: a rate (`120/3600`, `off`) as the server reads it (`Rate.parse`: the
    one bounded reader's numbers), kept as text for the workers' environment."""
    from companion.api.limits import Rate

    try:
        Rate.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _serve_command(args: argparse.Namespace) -> int:
    # Imported here so that the other commands start without loading the web stack.
    from companion.api.limits import Rate
    from companion.api.server import ServeSettings, serve
    from companion.ledger.db import resolve_url, shown
    from companion.web.addresses import public_url

    for name in ("create_limit", "write_limit", "seat_limit", "read_limit"):
        try:
            Rate.parse(getattr(args, name))
        except ValueError as error:
            raise SystemExit(f"companion serve: --{name.replace('_', '-')}: {error}") from None
    if args.workers < 1 or args.max_connections < 1:
        raise SystemExit("companion serve: --workers and --max-connections must be at least 1")
    args.public_url = args.public_url or os.environ.get(PUBLIC_URL_ENV) or None
    if args.public_url is not None:
        try:
            args.public_url = public_url(args.public_url)
        except ValueError as error:
            raise SystemExit(f"companion serve: --public-url: {error}") from None
    print_start(args.host, args.port, sys.stdout)
    print(f"The ledger's database: {shown(resolve_url(args.db))}")
    print_reach(args.host, args.port, args.public_url, sys.stdout)
    sys.stdout.flush()
    serve(
        ServeSettings(
            host=args.host,
            port=args.port,
            database_url=args.db,
            workers=args.workers,
            allowed_hosts=tuple(args.allowed_host),
            forwarded_allow_ips=args.forwarded_allow_ips,
            max_connections=args.max_connections,
            header_timeout=args.header_timeout,
            body_timeout=args.body_timeout,
            keep_alive=args.keep_alive,
            create_limit=args.create_limit,
            write_limit=args.write_limit,
            seat_limit=args.seat_limit,
            read_limit=args.read_limit,
            public_url=args.public_url,
        )
    )
    return 0


def print_start(host: str, port: int, out: TextIO) -> None:
    """The first line: where the server listens. A server on every address (`0.0.0.0`, `::`)
    has no address of its own that a browser could open, so the line names none; the phones'
    address follows (`print_reach`)."""
    from companion.api.security import WILDCARD_HOSTS, host_name
    from companion.web.addresses import url_host

    if host_name(host) in WILDCARD_HOSTS:
        where = f"on every address of this machine, port {port}"
    else:
        where = f"at http://{url_host(host)}:{port}/"
    print(f"Companion is {where}  (Ctrl-C stops it)", file=out)


def print_reach(host: str, port: int, public: str | None, out: TextIO) -> None:
    """Where the phones at the table open Companion: the public URL, or the machine's network
    address for a server on every address, with its QR code when `out` is a terminal (the host's
    phone opens it in one scan); for a server on loopback, that they cannot and what to run."""
    from companion.api.security import WILDCARD_HOSTS, host_name
    from companion.web.addresses import is_loopback, lan_address, url_host
    from companion.web.table_share import terminal_qr

    listen = host_name(host)
    if public is not None:
        address = f"{public}/"
    elif listen in WILDCARD_HOSTS:
        lan = lan_address()
        if lan is None:
            print(
                "No network address found: the phones cannot reach this machine. Join the "
                "table's Wi-Fi and restart, or give --public-url.",
                file=out,
            )
            return
        address = f"http://{url_host(lan)}:{port}/"
    elif is_loopback(listen):
        print(
            "Only this machine can open it. For the phones at the table, run "
            "`make table-night` (or `companion serve --host 0.0.0.0`).",
            file=out,
        )
        return
    else:
        return  # listening on one network address: the one printed above
    if out.isatty():
        print(f"The phones at the table open {address}  (scan it):", file=out)
        out.write(terminal_qr(address))
    else:
        print(f"The phones at the table open {address}", file=out)
