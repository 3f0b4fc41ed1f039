"""`companion serve`: run the web app and HTTP API with uvicorn (`companion.api.server`)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `serve` subcommand to the command line's subcommands."""
    parser = commands.add_parser(
        "serve",
        help="run the web app and HTTP API (the calculator is at /, the API reference at /docs)",
        description="Serve Companion's web app and HTTP API. Open the printed address in a "
        "browser; on a phone at the table, serve on --host 0.0.0.0 and open the machine's "
        "address.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the ledger's database: a SQLite path or URL, or a PostgreSQL URL "
        "(default: COMPANION_DATABASE_URL, else a SQLite file in the user's data directory)",
    )
    public = parser.add_argument_group(
        "a public server", "limits and trust for a server others can reach (docs/deploy.md)"
    )
    public.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (1)")
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
        type=int,
        default=2048,
        metavar="N",
        help="open connections per process; more are refused with 503 (2048)",
    )
    public.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a client has to send a request's headers (10)",
    )
    public.add_argument(
        "--body-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds a client has to send a request's body (30)",
    )
    public.add_argument(
        "--keep-alive",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds an idle connection is kept open between requests (5)",
    )
    public.add_argument(
        "--create-limit",
        default="120/3600",
        metavar="N/S",
        help="tables one client address may create: N at once, N per S seconds after "
        "(120/3600; 'off')",
    )
    public.add_argument(
        "--write-limit",
        default="240/60",
        metavar="N/S",
        help="writes to one table: N at once, N per S seconds after (240/60; 'off')",
    )
    parser.set_defaults(handler=_serve_command)


def _serve_command(args: argparse.Namespace) -> int:
    # Imported here so that the other commands start without loading the web stack.
    from companion.api.limits import Rate
    from companion.api.server import ServeSettings, serve
    from companion.ledger.db import resolve_url, shown

    for name in ("create_limit", "write_limit"):
        try:
            Rate.parse(getattr(args, name))
        except ValueError as error:
            raise SystemExit(f"companion serve: --{name.replace('_', '-')}: {error}") from None
    if args.workers < 1 or args.max_connections < 1:
        raise SystemExit("companion serve: --workers and --max-connections must be at least 1")
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Companion is at http://{shown_host}:{args.port}/  (Ctrl-C stops it)", flush=True)
    print(f"The ledger's database: {shown(resolve_url(args.db))}", flush=True)
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
        )
    )
    return 0
