"""The command line: `companion waits`, `companion score`, ...

Every refusal is a one-line message on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import NoReturn, cast

from companion import cli_table
from companion.errors import CompanionError, InvalidRequestError
from companion.hand import parse_hand
from companion.rules import get_profile, profiles
from companion.scoring import ScoreResult, amount_json, score, score_several
from companion.shapes import waits

EXIT_BAD_INPUT = 2

_LINE_BREAKS = {
    ord(c): c.encode("unicode_escape").decode() for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
}


def one_line(message: str) -> str:
    """A refusal on one line: line breaks that a message quotes from the input are escaped."""
    return message.translate(_LINE_BREAKS)


def _waits_command(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    options = dict(_parse_option(text) for text in args.option or ())
    structure = profile.structure_for(profile.parse_options(options))
    hand = parse_hand(
        args.hand, args.melds or (), args.bonus or "", sets=structure.sets, complete=False
    )
    found = waits(hand, structure)
    if args.json:
        print(json.dumps({"waits": [tile.mpsz for tile in found]}))
    elif found:
        print("Waits: " + ", ".join(f"{tile.mpsz} ({tile.english})" for tile in found))
    else:
        print("No tile completes this hand.")
    return 0


def read_input(source: str) -> str:
    """The text of a file, or of standard input for "-", which must be UTF-8 (whatever the
    locale): anything else is a one-line refusal, not a traceback."""
    try:
        if source != "-":
            with open(source, encoding="utf-8") as handle:
                return handle.read()
        raw = getattr(sys.stdin, "buffer", None)
        return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
    except OSError as error:
        raise InvalidRequestError(f"cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        shown = "standard input" if source == "-" else source
        raise InvalidRequestError(f"cannot read {shown}: it is not UTF-8 text") from None


def _read_json(source: str) -> object:
    text = read_input(source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRequestError(
            f"the request is not valid JSON: {error.msg} at line "
            f"{error.lineno} column {error.colno}"
        ) from None


def _parse_option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise InvalidRequestError(f'option "{text}" must be written NAME=VALUE, e.g. min_tai=2')
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value


def request_from_args(args: argparse.Namespace) -> dict[str, object]:
    """The scoring request (docs/contract.md) that the command-line flags describe."""
    request: dict[str, object] = {"profile": args.profile, "hand": args.hand}
    optional = {
        "win_tile": args.win_tile,
        "bonus": " ".join(args.bonus) if args.bonus else None,
        "win": args.win,
        "seat": args.seat,
        "round": args.round,
        "discarder": args.discarder,
        "dealer": args.dealer,
        "dealer_streak": args.dealer_streak,
        "table_discards": args.table_discards,
        "liable": args.liable,
        "flower_win": args.flower_win,
    }
    request.update({key: value for key, value in optional.items() if value is not None})
    if args.discarder is not None and args.win is None:
        request["win"] = "discard"
    if args.melds:
        request["melds"] = args.melds
    if args.events:
        request["events"] = args.events
    if args.option:
        request["options"] = dict(_parse_option(text) for text in args.option)
    return request


def _score_command(args: argparse.Namespace) -> int:
    if args.multi:
        data = _read_json(args.json if isinstance(args.json, str) else "-")
        return _print_json(score_several(data).to_json())
    if args.hand is None and args.flower_win is None:
        data = _read_json(args.json if isinstance(args.json, str) else "-")
        return _print_json(score(_as_request(data)).to_json())
    result = score(request_from_args(args))
    if args.json:
        return _print_json(result.to_json())
    print(describe(result))
    return 0


def _as_request(data: object) -> dict[str, object]:
    if not isinstance(data, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    return data


def _print_json(data: object) -> int:
    print(json.dumps(data, ensure_ascii=False))
    return 0


def _signed(amount: Fraction) -> str:
    """+16, -8, 0: a seat that neither pays nor gains shows no sign."""
    return f"{amount_json(amount):+}" if amount else "0"


def describe(result: ScoreResult) -> str:
    """A readable breakdown for a person at the table."""
    if not result.valid:
        return f"Not a win: {result.error}"
    lines = [
        f"{result.profile}: {result.tai} {result.unit}"
        + (f" (patterns add up to {result.raw_tai})" if result.raw_tai != result.tai else "")
    ]
    if not result.patterns:
        lines.append("  no scoring pattern")
    width = max((len(score.name) for score in result.patterns), default=0)
    for score_ in result.patterns:
        times = f" x{score_.count}" if score_.count > 1 else ""
        earned = ", ".join(item for item in score_.earned_by if item)
        lines.append(
            f"  {score_.name:<{width}}  {score_.tai:>2} {result.unit}{times:<4}  {earned}".rstrip()
        )
    if result.dealer_tai:
        lines.append(f"  Dealer tai (on the dealer's payments): {result.dealer_tai}")
    if result.reading is not None:
        lines.append(
            f"Reading: {result.reading}  (winning tile in {result.reading.winning_group}, "
            f"{result.reading.role.value.replace('_', '-')} wait)"
        )
    if result.waits:
        lines.append("Waited on: " + " ".join(tile.mpsz for tile in result.waits))
    if not result.meets_minimum:
        lines.append("Under the minimum: nobody pays.")
    else:
        for payer, payee, amount in result.transfers():
            lines.append(f"  {payer.value} pays {payee.value} {amount_json(amount)}")
        net = ", ".join(
            f"{seat.value} {_signed(amount)}" for seat, amount in result.payments.items()
        )
        lines.append(f"Net: {net}")
    lines.extend(f"Note: {note}" for note in result.notes)
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    """Usage mistakes are one line on standard error, like every other refusal."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="companion",
        description="Mahjong scoring companion for Singapore, Taiwan and Hong Kong tables.",
    )
    # Subcommands are made by `_Parser` too; modules that add some see plain parsers.
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, metavar="COMMAND"),
    )

    waits_parser = commands.add_parser(
        "waits", help="the tiles that complete a hand one tile short"
    )
    waits_parser.add_argument("hand", help="concealed tiles in MPSZ, e.g. 123m456p11z")
    waits_parser.add_argument(
        "--melds",
        nargs="+",
        action="extend",
        metavar="GROUP",
        help='declared groups, e.g. "pung 777z" "chow 123m" "ckong 1111p"',
    )
    waits_parser.add_argument("--bonus", help="flowers, seasons and animals, e.g. 1f5f")
    waits_parser.add_argument("--profile", default="sg", choices=sorted(profiles()))
    waits_parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a profile option (hk: seven_pairs=true); repeatable",
    )
    waits_parser.add_argument("--json", action="store_true", help="print a JSON object")
    waits_parser.set_defaults(handler=_waits_command)

    score_parser = commands.add_parser(
        "score",
        help="score a winning hand",
        description="With no HAND, read one scoring request as JSON from standard input "
        "(or --json FILE) and print the JSON result. With HAND, print a readable breakdown "
        "(--json for the JSON result).",
    )
    score_parser.add_argument("hand", nargs="?", help="concealed tiles, winning tile last")
    score_parser.add_argument(
        "--json",
        nargs="?",
        const=True,
        default=False,
        metavar="FILE",
        help="with HAND: print JSON; without: read the request from FILE",
    )
    score_parser.add_argument("--profile", default="sg")
    score_parser.add_argument("--win-tile", dest="win_tile")
    score_parser.add_argument(
        "--melds", nargs="+", action="extend", metavar="GROUP", help='e.g. "pung 777z"'
    )
    score_parser.add_argument("--bonus", nargs="+", action="extend", metavar="TILES")
    score_parser.add_argument("--win", choices=("self_draw", "discard"))
    score_parser.add_argument("--from", dest="discarder", metavar="SEAT", help="the discarder")
    score_parser.add_argument("--seat", metavar="WIND")
    score_parser.add_argument("--round", metavar="WIND")
    score_parser.add_argument("--dealer", metavar="WIND")
    score_parser.add_argument("--dealer-streak", dest="dealer_streak", type=int)
    score_parser.add_argument("--table-discards", dest="table_discards", type=int)
    score_parser.add_argument(
        "--event", dest="events", action="append", metavar="EVENT", help="repeatable"
    )
    score_parser.add_argument("--flower-win", dest="flower_win", metavar="KIND")
    score_parser.add_argument("--liable", metavar="SEAT")
    score_parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a profile option; repeatable"
    )
    score_parser.add_argument(
        "--multi",
        action="store_true",
        help="read a JSON list of requests, the winners of one discard, and print the JSON of "
        "each winner's result and the summed payments",
    )
    score_parser.set_defaults(handler=_score_command)
    from companion import cli_payout

    cli_payout.register(commands)
    cli_table.register(commands)
    from companion import cli_serve

    cli_serve.register(commands)
    return parser


_FAILING_ERRORS = ("strict", "surrogateescape")


def _escape_unprintable_output() -> None:
    """Characters standard output cannot encode (a lone surrogate that a request spelled as a
    JSON escape, a name outside a legacy locale's character set) are written as backslash
    escapes instead of ending in a traceback. Inside JSON output such a character is always in a
    string, where the escape is valid JSON for the same value. (The C locale's
    "surrogateescape" fails too, on surrogates that are not escaped bytes.)"""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) in _FAILING_ERRORS:
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _escape_unprintable_output()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except CompanionError as error:
        print(f"companion: {one_line(error.message)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (`companion ... | head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
