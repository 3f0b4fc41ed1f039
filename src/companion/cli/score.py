"""`companion score`: score a winning hand, as a readable breakdown or the JSON result."""

from __future__ import annotations

import argparse
import unicodedata
from fractions import Fraction
from typing import TYPE_CHECKING

from companion.cli.common import parse_option, print_json, read_json, whole_number
from companion.errors import InvalidRequestError
from companion.scoring import ScoreResult, score, score_several
from companion.settlement import amount_json, signed_amount

if TYPE_CHECKING:
    from companion.rules.riichi.profile import RiichiScoreResult


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `score` subcommand to the command line's subcommands."""
    parser = commands.add_parser(
        "score",
        help="score a winning hand",
        description="With no HAND, read one scoring request as JSON from standard input "
        "(or --json FILE) and print the JSON result. With HAND, print a readable breakdown "
        "(--json for the JSON result).",
    )
    parser.add_argument(
        "hand",
        nargs="*",
        help="concealed tiles, winning tile last: MPSZ or names, in one word or several "
        '(123m456p55s, East East East, "1 of characters")',
    )
    parser.add_argument(
        "--json",
        nargs="?",
        const=True,
        default=False,
        metavar="FILE",
        help="with HAND: print JSON; without: read the request from FILE",
    )
    parser.add_argument("--profile", default="sg")
    parser.add_argument("--win-tile", dest="win_tile")
    parser.add_argument(
        "--melds", nargs="+", action="extend", metavar="GROUP", help='e.g. "pung 777z"'
    )
    parser.add_argument("--bonus", nargs="+", action="extend", metavar="TILES")
    parser.add_argument("--win", choices=("self_draw", "discard"))
    parser.add_argument("--from", dest="discarder", metavar="SEAT", help="the discarder")
    parser.add_argument("--seat", metavar="WIND")
    parser.add_argument("--round", metavar="WIND")
    parser.add_argument("--dealer", metavar="WIND")
    parser.add_argument("--dealer-streak", dest="dealer_streak", type=whole_number)
    parser.add_argument("--table-discards", dest="table_discards", type=whole_number)
    parser.add_argument(
        "--event", dest="events", action="append", metavar="EVENT", help="repeatable"
    )
    parser.add_argument("--flower-win", dest="flower_win", metavar="KIND")
    parser.add_argument("--liable", metavar="SEAT")
    parser.add_argument(
        "--dora", nargs="+", action="extend", metavar="TILE", help="riichi: dora indicators"
    )
    parser.add_argument(
        "--ura-dora",
        dest="ura_dora",
        nargs="+",
        action="extend",
        metavar="TILE",
        help="riichi: ura dora indicators (with --event riichi)",
    )
    parser.add_argument("--honba", type=whole_number, help="riichi: the counters on the table")
    parser.add_argument(
        "--riichi-sticks",
        dest="riichi_sticks",
        type=whole_number,
        help="riichi: the 1000-point deposits on the table, this hand's included",
    )
    parser.add_argument(
        "--kita",
        type=whole_number,
        metavar="N",
        help="sanma: the North tiles set aside (0-4), each a dora",
    )
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a profile option; repeatable"
    )
    parser.add_argument(
        "--multi",
        action="store_true",
        help="read a JSON list of requests, the winners of one discard, and print the JSON of "
        "each winner's result and the summed payments",
    )
    parser.set_defaults(handler=_score_command)


def hand_text(words: list[str] | str | None) -> str | None:
    """The hand as one text: its words as given on the command line, one space between them
    (`East East East 123m`, `1 of characters 1 of characters`), which `parse_tiles` reads."""
    if isinstance(words, str) or words is None:
        return words
    return " ".join(words) or None


def request_from_args(args: argparse.Namespace) -> dict[str, object]:
    """The scoring request (docs/contract.md) that the command-line flags describe."""
    request: dict[str, object] = {"profile": args.profile, "hand": hand_text(args.hand)}
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
        "honba": args.honba,
        "riichi_sticks": args.riichi_sticks,
        "kita": args.kita,
    }
    request.update({key: value for key, value in optional.items() if value is not None})
    if args.discarder is not None and args.win is None:
        request["win"] = "discard"
    if args.melds:
        request["melds"] = args.melds
    if args.events:
        request["events"] = args.events
    if args.dora:
        request["dora"] = args.dora
    if args.ura_dora:
        request["ura_dora"] = args.ura_dora
    if args.option:
        request["options"] = dict(parse_option(text) for text in args.option)
    return request


def _score_command(args: argparse.Namespace) -> int:
    if args.multi:
        data = read_json(args.json if isinstance(args.json, str) else "-")
        return print_json(score_several(data).to_json())
    if not args.hand and args.flower_win is None:
        data = read_json(args.json if isinstance(args.json, str) else "-")
        return print_json(score(_as_request(data)).to_json())
    result = score(request_from_args(args))
    if args.json:
        return print_json(result.to_json())
    print(describe(result))
    return 0


def _as_request(data: object) -> dict[str, object]:
    if not isinstance(data, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    return data


def describe(result: ScoreResult) -> str:
    """A readable breakdown for a person at the table."""
    if not result.valid:
        return f"Not a win: {result.error}"
    if result.unit == "han":
        # Imported for a riichi (or sanma) hand alone: the others need none of its scoring.
        from companion.rules.riichi.profile import RiichiScoreResult

        if isinstance(result, RiichiScoreResult):
            return describe_riichi(result)
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


def describe_riichi(result: RiichiScoreResult) -> str:
    """A riichi (or sanma) hand as players say it: han and fu (or the yakuman), the limit and
    the call, each yaku, the fu's items, and who pays what."""
    found = result.riichi
    if found.yakuman:
        value = "yakuman" if found.yakuman == 1 else f"{found.yakuman}x yakuman"
    else:
        value = f"{found.han} han {found.fu} fu"
        if found.limit:
            value += f", {found.limit.replace('_', ' ')}"
    lines = [f"{result.profile}: {value} - {found.call}"]
    width = max(_columns(score.name) for score in found.patterns)
    for score_ in found.patterns:
        worth = f"{score_.yakuman} yakuman" if score_.yakuman else f"{score_.han} han"
        padding = " " * (width - _columns(score_.name))
        lines.append(f"  {score_.name}{padding}  {worth}")
    if not found.yakuman:
        items = ", ".join(f"{item.reason.replace('_', ' ')} {item.fu}" for item in found.fu_items)
        lines.append(f"Fu: {items} = {found.fu}")
    lines.append("Groups: " + " ".join(found.groups))
    if result.waits:
        lines.append("Waited on: " + " ".join(tile.mpsz for tile in result.waits))
    for payer, payee, amount in result.transfers():
        lines.append(f"  {payer.value} pays {payee.value} {amount_json(amount)}")
    if found.deposits:
        lines.append(
            f"  {result.winner.value if result.winner else ''} takes {found.deposits} "
            "from the deposits"
        )
    net = ", ".join(f"{seat.value} {_signed(amount)}" for seat, amount in result.payments.items())
    lines.append(f"Net: {net}")
    return "\n".join(lines)


def _columns(text: str) -> int:
    """The columns a terminal gives `text`: two for each wide character (the yaku's kanji)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _signed(amount: Fraction) -> str:
    """The net of a seat as the JSON result writes the number: +16, -8, 0, +0.5."""
    return signed_amount(amount, lambda number: str(amount_json(number)))
