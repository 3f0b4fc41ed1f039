"""`companion table ...`: keep a session's score in the ledger from the command line.

Players are named, never seated by wind: the ledger knows who deals and where everyone sits.
Every command takes `--db URL` (default: `COMPANION_DATABASE_URL`, then a SQLite file in the
user's data directory). Write commands on a local database need no token; the web app will.

This module wires the group and its reading commands (`new`, `standings`, `history`, `settle`,
`export`); the record commands and corrections are `table_record`'s, and what is printed for
people `table_show`'s.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any
from urllib.parse import quote

from companion.cli.common import (
    DEFAULT_PORT,
    PUBLIC_URL_ENV,
    database_parent,
    json_parent,
    parse_option,
    print_json,
    whole_number,
    write_output,
)
from companion.cli.table_record import open_ledger, register_corrections, register_records
from companion.cli.table_show import history_line, standings_text
from companion.errors import InvalidRequestError
from companion.ledger.export import entry_json
from companion.ledger.settle import transfer_text
from companion.rules import table_profiles
from companion.settlement import format_amount


def _three_seated() -> str:
    """The profiles whose tables seat three (`Profile.seats`: sanma)."""
    return ", ".join(id for id, profile in table_profiles().items() if len(profile.seats) == 3)


def register(commands: Any) -> None:
    """Add the `table` command group to the subparsers of `companion`."""
    table = commands.add_parser(
        "table",
        help="keep a table's score: record hands, standings, corrections, settle-up",
        description="A table ledger: four named players in seat order (three at a "
        f"{_three_seated()} table; the first deals first), "
        "every hand recorded, the dealer, winds, streak and totals worked out from the record.",
    )
    sub = table.add_subparsers(dest="table_command", required=True, metavar="COMMAND")
    common = database_parent()
    keyed = argparse.ArgumentParser(add_help=False)
    keyed.add_argument(
        "--key",
        metavar="K",
        help="idempotency key: the same key again records nothing new",
    )
    expecting = argparse.ArgumentParser(add_help=False)
    expecting.add_argument(
        "--expect-hand",
        dest="expect_hand",
        type=whole_number,
        metavar="N",
        help="refuse unless N is the hand being played (another writer may have recorded it)",
    )
    as_json = json_parent()

    new = sub.add_parser("new", parents=[common, as_json], help="start a table; prints its id")
    new.add_argument("--profile", default="sg", help=f"one of {', '.join(table_profiles())}")
    new.add_argument(
        "--players",
        required=True,
        metavar="A,B,C,D",
        help=f"four names in seat order, East first (three at a {_three_seated()} table: A,B,C)",
    )
    new.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a profile option; repeatable"
    )
    new.add_argument("--hands", type=whole_number, metavar="N", help="the planned number of hands")
    new.add_argument("--name", default="", help="what the players call the table (optional)")
    new.add_argument(
        "--club",
        metavar="ID",
        help="the club the table belongs to: its names are matched to the club's roster, and "
        "new names join it",
    )
    new.add_argument(
        "--public-url",
        metavar="URL",
        help="the server's address as the phones open it, for the printed links (default: "
        f"COMPANION_PUBLIC_URL, else this machine's network address on port {DEFAULT_PORT}, "
        "where make table-night serves)",
    )
    new.set_defaults(handler=_new)

    register_records(sub, [common, keyed, expecting, as_json])

    standings = sub.add_parser(
        "standings", parents=[common, as_json], help="totals, dealer, round, hands played"
    )
    standings.add_argument("table", metavar="ID")
    standings.set_defaults(handler=_standings)

    history = sub.add_parser("history", parents=[common, as_json], help="every recorded entry")
    history.add_argument("table", metavar="ID")
    history.set_defaults(handler=_history)

    register_corrections(sub, [common, keyed, as_json])

    settle = sub.add_parser(
        "settle", parents=[common, as_json], help="the fewest transfers that square the table"
    )
    settle.add_argument("table", metavar="ID")
    settle.set_defaults(handler=_settle)

    export = sub.add_parser("export", parents=[common], help="history and standings as CSV/JSON")
    export.add_argument("table", metavar="ID")
    export.add_argument("--format", choices=("csv", "json"), default="json")
    export.add_argument("--output", "-o", metavar="FILE", help="write to FILE, not stdout")
    export.set_defaults(handler=_export)


# ---------------------------------------------------------------------------------------------
# Handlers


def _new(args: argparse.Namespace) -> int:
    options = dict(parse_option(text) for text in args.option or ())
    players = args.players.split(",")
    server = server_address(args.public_url or os.environ.get(PUBLIC_URL_ENV) or None)
    joined: dict[str, list[str]] | None = None
    with open_ledger(args) as ledger:
        table = {"options": options, "hands": args.hands, "name": args.name}
        if args.club is None:
            created = ledger.create_table(args.profile, players, **table)
        else:
            from companion.ledger.club_book.service import ClubBook

            created, club_names = ClubBook(ledger).create_table(
                args.club, args.profile, players, **table
            )
            joined = club_names.to_json()
        standings = ledger.standings(created.id)
    read = f"{server}/t/{created.id}"
    write = f"{read}#token={quote(created.token, safe='')}"
    if args.json:
        print_json(
            {
                "id": created.id,
                "token": created.token,
                "profile": created.setup.profile,
                "players": list(created.setup.players),
                "options": dict(created.setup.options),
                "planned_hands": created.setup.planned_hands,
                "name": created.setup.name,
                "standings": standings,
                "write_link": write,
                "read_link": read,
            }
            | ({} if joined is None else {"club": args.club, "roster": joined})
        )
        return 0
    print(created.id)
    print(
        f"Table {created.id} ({created.setup.profile}): {', '.join(created.setup.players)}; "
        f"{created.setup.players[0]} deals first.\n"
        f"Write link, for whoever records the hands (shown once: it holds the write token):\n"
        f"  {write}\n"
        f"Read-only link, for everyone watching:\n  {read}",
        file=sys.stderr,
    )
    if joined is not None:
        print(joined_text(args.club, joined), file=sys.stderr)
    return 0


def joined_text(club: str, roster: dict[str, list[str]]) -> str:
    """What a table or an event did to its club's roster, for the terminal: the names that
    joined it first (the pages say the same words), then those it knew."""
    known = ", ".join(roster["known"])
    if not roster["joined"]:
        return f"Club {club}: every name was on the club's roster already ({known})."
    joined = f"Club {club}: joined the club's roster: {', '.join(roster['joined'])}"
    return joined + (f" (already on it: {known})" if known else "")


def server_address(public: str | None) -> str:
    """The start of a table's links: `--public-url`, else this machine's network address on
    the default port (loopback without a network), as `companion serve --host 0.0.0.0` gives
    them."""
    from companion.web.addresses import lan_address, public_url, url_host

    if public is not None:
        try:
            return public_url(public)
        except ValueError as error:
            raise InvalidRequestError(f"--public-url: {error}") from None
    return f"http://{url_host(lan_address() or '127.0.0.1')}:{DEFAULT_PORT}"


def _standings(args: argparse.Namespace) -> int:
    with open_ledger(args) as ledger:
        replayed = ledger.replay(args.table)
        standings = ledger.standings(args.table)
    if args.json:
        return print_json(standings)
    print(standings_text(replayed))
    return 0


def _history(args: argparse.Namespace) -> int:
    with open_ledger(args) as ledger:
        replayed = ledger.replay(args.table)
    players = replayed.setup.players
    if args.json:
        return print_json([entry_json(players, entry) for entry in replayed.entries])
    if not replayed.entries:
        print("Nothing recorded yet.")
    for entry in replayed.entries:
        print(history_line(players, entry))
    return 0


def _settle(args: argparse.Namespace) -> int:
    with open_ledger(args) as ledger:
        replayed = ledger.replay(args.table)
        transfers = ledger.settle_up(args.table)
    players = replayed.setup.players
    if args.json:
        return print_json(
            [
                {
                    "from": players[t.payer],
                    "to": players[t.payee],
                    "amount": format_amount(t.amount),
                    "text": transfer_text(players, t),
                }
                for t in transfers
            ]
        )
    if not transfers:
        print("All square: nobody owes anything.")
    for transfer in transfers:
        print(transfer_text(players, transfer))
    return 0


def _export(args: argparse.Namespace) -> int:
    with open_ledger(args) as ledger:
        if args.format == "csv":
            text = ledger.export_csv(args.table)
        else:
            text = json.dumps(ledger.export_json(args.table), ensure_ascii=False, indent=2) + "\n"
    return write_output(text, args.output)
