"""`companion payout`: the instant payouts of the Singapore table, one event at a time.

    companion payout --profile sg-table bite --seat S --at-start --json

A refusal of malformed input is a one-line message on standard error and exit status 2 (as for
`companion score`); an event its tiles contradict prints `valid: false` (or "No payout: ...").
"""

from __future__ import annotations

import argparse
import json

from companion.cli.common import parse_option
from companion.payouts import (
    InstantPayout,
    NotPayableError,
    PayoutKind,
    explain_payout,
    payout_options,
)
from companion.settlement import amount_json


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `payout` subcommand to the command line's subcommands."""
    parser = commands.add_parser(
        "payout",
        help="an instant payout of the Singapore table (bites, flower sets, kongs)",
        description="What each player pays the holder for one instant payout, separate from "
        "the hand's settlement. Amounts are in units of the one-tai share (option share).",
    )
    parser.add_argument(
        "event",
        metavar="EVENT",
        help="one of " + ", ".join(kind.value for kind in PayoutKind),
    )
    parser.add_argument("--seat", required=True, metavar="WIND", help="the holder's seat: E S W N")
    parser.add_argument(
        "--at-start",
        dest="at_start",
        action="store_true",
        help="the event was complete in the tiles dealt at the start of the hand",
    )
    parser.add_argument(
        "--tiles",
        metavar="TILES",
        help="the holder's bonus tiles (or the kong), checked against the event, e.g. 1a2a",
    )
    parser.add_argument(
        "--profile", default="sg-table", help="the profile (only sg-table has instant payouts)"
    )
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a profile option; repeatable"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.set_defaults(handler=_payout_command)


def _payout_command(args: argparse.Namespace) -> int:
    options = payout_options(args.profile, dict(parse_option(t) for t in args.option or ()))
    try:
        payout = explain_payout(options, args.event, args.seat, args.at_start, args.tiles)
    except NotPayableError as refusal:
        if args.json:
            print(json.dumps({"valid": False, "profile": args.profile, "error": refusal.message}))
        else:
            print(f"No payout: {refusal.message}")
        return 0
    if args.json:
        print(json.dumps(payout.to_json(), ensure_ascii=False))
    else:
        print(describe_payout(payout))
    return 0


def describe_payout(payout: InstantPayout) -> str:
    """A readable account of one instant payout."""
    when = ", held at the start" if payout.at_start else ""
    lines = [f"{payout.profile} instant payout: {payout.event.label}{when}"]
    if len(payout.parts) > 1:
        for kind, units in payout.parts:
            lines.append(f"  {kind.label}: {amount_json(units)}")
    if payout.each:
        lines.append(f"Each other player pays {payout.seat.value} {amount_json(payout.each)}")
        for payer, payee, amount in payout.transfers():
            lines.append(f"  {payer.value} pays {payee.value} {amount_json(amount)}")
    else:
        lines.append("Nobody pays.")
    net = ", ".join(
        f"{seat.value} {amount_json(amount):+}" for seat, amount in payout.payments.items()
    )
    lines.append(f"Net: {net}")
    lines.extend(f"Note: {note}" for note in payout.payout_notes)
    return "\n".join(lines)
