"""`companion serve`: run the web app and HTTP API with uvicorn."""

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
    parser.set_defaults(handler=_serve_command)


def _serve_command(args: argparse.Namespace) -> int:
    # Imported here so that the other commands start without loading the web stack.
    import uvicorn

    from companion.api import create_app
    from companion.ledger.db import resolve_url, shown

    app = create_app(args.db)
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Companion is at http://{shown_host}:{args.port}/  (Ctrl-C stops it)", flush=True)
    print(f"The ledger's database: {shown(resolve_url(args.db))}", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        server_header=False,
        proxy_headers=False,
        log_level="info",
    )
    return 0
