"""`companion table ...`: keep a session's score in the ledger from the command line.

Players are named, never seated by wind: the ledger knows who deals and where everyone sits.
Every command takes `--db URL` (default: `COMPANION_DATABASE_URL`, then a SQLite file in the
user's data directory). Write commands on a local database need no token; the web app will.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from companion.cli.common import (
    DEFAULT_PORT,
    PUBLIC_URL_ENV,
    database_parent,
    json_parent,
    parse_option,
    print_json,
    read_input,
    whole_number,
    write_output,
)
from companion.errors import InvalidRequestError
from companion.ledger.entries import (
    ChomboInput,
    Correction,
    DrawInput,
    Entry,
    PayoutInput,
    StopInput,
    WinInput,
    WinnerInput,
    correction_text,
    outcome_text,
)
from companion.ledger.errors import LedgerError
from companion.ledger.export import event_json
from companion.ledger.replay import HistoryEntry, Replay
from companion.ledger.settle import transfer_text
from companion.ledger.state import TableState
from companion.rules import table_profiles
from companion.rules.riichi.game import end_text, one_decimal, points_text
from companion.settlement import format_amount, signed_amount

if TYPE_CHECKING:
    from companion.ledger.repository import Ledger
    from companion.ledger.store import Recorded


def register(commands: Any) -> None:
    """Add the `table` command group to the subparsers of `companion`."""
    table = commands.add_parser(
        "table",
        help="keep a table's score: record hands, standings, corrections, settle-up",
        description="A table ledger: four named players in seat order (the first deals first), "
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
        "--players", required=True, metavar="A,B,C,D", help="four names in seat order, East first"
    )
    new.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a profile option; repeatable"
    )
    new.add_argument("--hands", type=whole_number, metavar="N", help="the planned number of hands")
    new.add_argument("--name", default="", help="what the players call the table (optional)")
    new.add_argument(
        "--public-url",
        metavar="URL",
        help="the server's address as the phones open it, for the printed links (default: "
        f"COMPANION_PUBLIC_URL, else this machine's network address on port {DEFAULT_PORT}, "
        "where make table-night serves)",
    )
    new.set_defaults(handler=_new)

    win = sub.add_parser(
        "win",
        parents=[common, keyed, expecting, as_json],
        help="record a win (agreed tai or the full hand)",
        description="Record a win. Several winners on one discard (tw): repeat --winner and "
        "give one --tai or one --hand per winner, in the same order.",
    )
    win.add_argument("table", metavar="ID")
    _win_arguments(win, required=True)
    win.set_defaults(handler=_win)

    draw = sub.add_parser(
        "draw",
        parents=[common, keyed, expecting, as_json],
        help="record a drawn hand (riichi: the tenpai players, the riichi declarations)",
    )
    draw.add_argument("table", metavar="ID")
    _draw_arguments(draw)
    draw.set_defaults(handler=_draw)

    chombo = sub.add_parser(
        "chombo",
        parents=[common, keyed, expecting, as_json],
        help="riichi: record a chombo (a foul; the hand is dealt again)",
    )
    chombo.add_argument("table", metavar="ID")
    chombo.add_argument("--player", required=True, metavar="NAME", help="who fouled")
    chombo.set_defaults(handler=_chombo)

    stop = sub.add_parser(
        "stop",
        parents=[common, keyed, expecting, as_json],
        help="riichi: the leading dealer of the last hand stops the game",
    )
    stop.add_argument("table", metavar="ID")
    stop.set_defaults(handler=_stop)

    payout = sub.add_parser(
        "payout",
        parents=[common, keyed, expecting, as_json],
        help="record an instant payout (sg-table)",
    )
    payout.add_argument("table", metavar="ID")
    _payout_arguments(payout, required=True)
    payout.set_defaults(handler=_payout)

    standings = sub.add_parser(
        "standings", parents=[common, as_json], help="totals, dealer, round, hands played"
    )
    standings.add_argument("table", metavar="ID")
    standings.set_defaults(handler=_standings)

    history = sub.add_parser("history", parents=[common, as_json], help="every recorded event")
    history.add_argument("table", metavar="ID")
    history.set_defaults(handler=_history)

    void = sub.add_parser(
        "void", parents=[common, keyed, as_json], help="void a recorded event (kept in history)"
    )
    void.add_argument("table", metavar="ID")
    void.add_argument(
        "event_number", type=whole_number, metavar="N", help="the event number from the history"
    )
    _correction_arguments(void)
    void.set_defaults(handler=_void)

    amend = sub.add_parser(
        "amend",
        parents=[common, keyed, as_json],
        help="replace a recorded event by a corrected one (the original is kept)",
        description="Replace event N: give the corrected win (--winner ...), --draw, or the "
        "corrected payout (--player ... --event ...).",
    )
    amend.add_argument("table", metavar="ID")
    amend.add_argument(
        "event_number", type=whole_number, metavar="N", help="the event number from the history"
    )
    _correction_arguments(amend)
    amend.add_argument("--draw", action="store_true", help="it was a drawn hand")
    amend.add_argument("--chombo", metavar="NAME", help="riichi: it was NAME's chombo")
    _draw_arguments(amend, riichi=False)
    _win_arguments(amend, required=False)
    _payout_arguments(amend, required=False)
    amend.set_defaults(handler=_amend)

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


def _win_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument(
        "--winner", action="append", required=required, metavar="NAME", help="repeatable (tw)"
    )
    how = parser.add_mutually_exclusive_group(required=False)
    how.add_argument("--from", dest="discarder", metavar="NAME", help="who discarded")
    how.add_argument("--self-draw", dest="self_draw", action="store_true")
    parser.add_argument(
        "--tai",
        "--faan",
        "--fan",
        dest="tai",
        action="append",
        type=whole_number,
        metavar="N",
        help="agreed tai (--faan at an hk table, --fan at an mcr table: the same, counted in "
        "faan or fan)",
    )
    parser.add_argument(
        "--flowers",
        action="append",
        type=whole_number,
        metavar="N",
        help="mcr with option flowers=true: the winner's flowers beside --fan (1 fan each, "
        "never toward the 8-fan minimum)",
    )
    parser.add_argument(
        "--hand",
        action="append",
        metavar="FILE",
        help="a scoring request as JSON (- for stdin); the table fills seats, round, dealer",
    )
    parser.add_argument(
        "--liable", metavar="NAME", help="sg-table, hk: who pays for all; riichi: who is liable"
    )
    for flag, kind, help_text in (
        ("--han", "han", "riichi: the hand's han (one per winner, with --fu)"),
        ("--yakuman", "yakuman", "riichi: or the hand's yakuman count"),
        ("--limit", "limit", "riichi: or a limit: mangan, haneman, baiman, sanbaiman, yakuman"),
    ):
        parser.add_argument(
            flag,
            dest="values",
            action=_ValueAction,
            kind=kind,
            metavar="N" if kind != "limit" else "NAME",
            help=help_text,
        )
    parser.add_argument(
        "--fu",
        dest="values",
        action=_ValueAction,
        kind="fu",
        metavar="N",
        help="riichi: the fu of the --han before it (may be left out from 5 han up)",
    )
    parser.add_argument(
        "--riichi",
        action="append",
        metavar="A,B",
        help="riichi: who declared riichi in this hand (a stick each); repeatable",
    )


class _ValueAction(argparse.Action):
    """`--han`, `--fu`, `--yakuman`, `--limit` in the order typed: each but `--fu` starts a
    winner's value, `--fu` completes the `--han` before it."""

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        self.kind = kind
        super().__init__(*args, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        found: list[dict[str, Any]] = list(getattr(namespace, self.dest, None) or [])
        if self.kind == "limit":
            value: Any = str(values)
        else:
            try:
                value = whole_number(str(values))
            except argparse.ArgumentTypeError as error:
                parser.error(f"argument {option_string}: {error}")
        if self.kind == "fu":
            if not found or "han" not in found[-1] or "fu" in found[-1]:
                parser.error("--fu goes with the --han before it: --han 3 --fu 40")
            found[-1]["fu"] = value
        else:
            found.append({self.kind: value})
        setattr(namespace, self.dest, found)


def _draw_arguments(parser: argparse.ArgumentParser, *, riichi: bool = True) -> None:
    parser.add_argument(
        "--tenpai",
        action="append",
        metavar="A,C",
        help="riichi: who was tenpai at the exhaustive draw; repeatable",
    )
    parser.add_argument(
        "--nagashi", action="append", metavar="NAME", help="riichi: paid a nagashi mangan"
    )
    parser.add_argument(
        "--abortive",
        metavar="KIND",
        help="riichi: an abortive draw: nine_terminals, four_winds, four_kongs, four_riichi, "
        "triple_ron",
    )
    if riichi:
        parser.add_argument(
            "--riichi",
            action="append",
            metavar="A,B",
            help="riichi: who declared riichi in this hand (a stick each); repeatable",
        )


def _payout_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--player", required=required, metavar="NAME", help="who receives")
    parser.add_argument(
        "--event",
        required=required,
        metavar="EVENT",
        help="bite, own_flowers, four_flowers, four_seasons, animal_set, all_animals, "
        "exposed_kong, concealed_kong",
    )
    parser.add_argument("--at-start", dest="at_start", action="store_true", help="held when dealt")


def _correction_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reason", required=True, help="why (kept in the history)")
    parser.add_argument("--by", default="", metavar="NAME", help="who makes the correction")


# ---------------------------------------------------------------------------------------------
# Handlers


def _open(args: argparse.Namespace) -> Ledger:
    # Imported here: SQLAlchemy and Alembic load only for the table commands.
    from companion.ledger.repository import Ledger

    return Ledger.open(args.db)


def _new(args: argparse.Namespace) -> int:
    options = dict(parse_option(text) for text in args.option or ())
    players = args.players.split(",")
    server = server_address(args.public_url or os.environ.get(PUBLIC_URL_ENV) or None)
    with _open(args) as ledger:
        created = ledger.create_table(
            args.profile, players, options=options, hands=args.hands, name=args.name
        )
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
    return 0


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


def _names(values: Sequence[str] | None) -> tuple[str, ...]:
    """Names given as `A,B` and repeated options, in order."""
    return tuple(
        name.strip() for value in values or () for name in value.split(",") if name.strip()
    )


def _win_entry(args: argparse.Namespace) -> WinInput:
    names: list[str] = args.winner or []
    tais: list[int] = args.tai or []
    hands: list[str] = args.hand or []
    values: list[dict[str, Any]] = getattr(args, "values", None) or []
    riichi = _names(getattr(args, "riichi", None))
    if not args.self_draw and args.discarder is None:
        raise LedgerError("say how the hand was won: --from NAME (a discard) or --self-draw")
    if values:
        if tais or hands:
            raise LedgerError(
                "give either --han (--fu, --yakuman, --limit) or --hand or --tai for the "
                "winners, not two of them"
            )
        if len(values) != len(names):
            raise LedgerError(
                f"give one --han (with --fu), --yakuman or --limit per winner, in the order "
                f"of --winner: {len(names)} winner(s), {len(values)} value(s)"
            )
        return WinInput(
            tuple(WinnerInput(n, **v) for n, v in zip(names, values, strict=True)),
            args.discarder,
            args.liable,
            riichi,
        )
    if tais and hands:
        raise LedgerError("give either --tai or --hand for the winners, not both")
    given = tais or hands
    if len(given) != len(names):
        what = "--tai N or --hand FILE" if not given else f"{len(given)} values"
        raise LedgerError(
            f"give one --tai or --hand per winner, in the order of --winner: {len(names)} "
            f"winner(s), {what}"
        )
    flowers: list[int | None] = getattr(args, "flowers", None) or []
    if flowers and len(flowers) != len(tais):
        raise LedgerError(
            f"give --flowers with --fan, one per winner: {len(tais)} --fan, "
            f"{len(flowers)} --flowers"
        )
    if tais:
        winners = tuple(
            WinnerInput(n, tai=t, flowers=f)
            for n, t, f in zip(names, tais, flowers or [None] * len(tais), strict=True)
        )
    else:
        winners = tuple(
            WinnerInput(n, hand=_read_hand(f)) for n, f in zip(names, hands, strict=True)
        )
    return WinInput(winners, args.discarder, args.liable, riichi)


def _read_hand(source: str) -> dict[str, Any]:
    text = read_input(source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRequestError(
            f"{source} is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    if not isinstance(data, dict):
        raise InvalidRequestError(f"{source} must hold a JSON object: a scoring request")
    return data


def _win(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        recorded = ledger.record(
            args.table, _win_entry(args), key=args.key, expect_hand=args.expect_hand
        )
    return _show_recorded(args, recorded)


def _draw_entry(args: argparse.Namespace) -> DrawInput:
    return DrawInput(
        tenpai=_names(args.tenpai),
        riichi=_names(getattr(args, "riichi", None)),
        nagashi=_names(args.nagashi),
        abortive=args.abortive,
    )


def _draw(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        recorded = ledger.record(
            args.table, _draw_entry(args), key=args.key, expect_hand=args.expect_hand
        )
    return _show_recorded(args, recorded)


def _chombo(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        recorded = ledger.record(
            args.table, ChomboInput(args.player), key=args.key, expect_hand=args.expect_hand
        )
    return _show_recorded(args, recorded)


def _stop(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        recorded = ledger.record(
            args.table, StopInput(), key=args.key, expect_hand=args.expect_hand
        )
    return _show_recorded(args, recorded)


def _payout(args: argparse.Namespace) -> int:
    entry = PayoutInput(args.player, args.event, args.at_start)
    with _open(args) as ledger:
        recorded = ledger.record(args.table, entry, key=args.key, expect_hand=args.expect_hand)
    return _show_recorded(args, recorded)


def _void(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        recorded = ledger.void(
            args.table, args.event_number, reason=args.reason, by=args.by, key=args.key
        )
    return _show_recorded(args, recorded)


def _amend(args: argparse.Namespace) -> int:
    entry: Entry
    kinds = [args.draw, bool(args.winner), bool(args.player or args.event), bool(args.chombo)]
    if sum(kinds) != 1:
        raise LedgerError(
            "give the corrected event: --draw, a win (--winner ...), a payout "
            "(--player ... --event ...) or a chombo (--chombo NAME)"
        )
    if args.chombo:
        entry = ChomboInput(args.chombo)
    elif args.draw:
        entry = DrawInput(
            tenpai=_names(args.tenpai),
            riichi=_names(args.riichi),
            nagashi=_names(args.nagashi),
            abortive=args.abortive,
        )
    elif args.winner:
        entry = _win_entry(args)
    else:
        if not (args.player and args.event):
            raise LedgerError("a corrected payout needs --player and --event")
        entry = PayoutInput(args.player, args.event, args.at_start)
    with _open(args) as ledger:
        recorded = ledger.amend(
            args.table, args.event_number, entry, reason=args.reason, by=args.by, key=args.key
        )
    return _show_recorded(args, recorded)


def _standings(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        replayed = ledger.replay(args.table)
        standings = ledger.standings(args.table)
    if args.json:
        return print_json(standings)
    print(_standings_text(replayed))
    return 0


def _history(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
        replayed = ledger.replay(args.table)
    players = replayed.setup.players
    if args.json:
        return print_json([event_json(players, entry) for entry in replayed.entries])
    if not replayed.entries:
        print("Nothing recorded yet.")
    for entry in replayed.entries:
        print(_history_line(players, entry))
    return 0


def _settle(args: argparse.Namespace) -> int:
    with _open(args) as ledger:
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
    with _open(args) as ledger:
        if args.format == "csv":
            text = ledger.export_csv(args.table)
        else:
            text = json.dumps(ledger.export_json(args.table), ensure_ascii=False, indent=2) + "\n"
    return write_output(text, args.output)


# ---------------------------------------------------------------------------------------------
# Output


def _show_recorded(args: argparse.Namespace, recorded: Recorded) -> int:
    players = recorded.replay.setup.players
    entry = recorded.entry
    if args.json:
        return print_json(
            {
                "duplicate": recorded.duplicate,
                "event": event_json(players, entry),
                "standings": recorded.replay.state.to_json(),
            }
        )
    if recorded.duplicate:
        print(f"Already recorded as event {recorded.event.seq} (same key): nothing new.")
    print(_history_line(players, entry))
    print(_standings_text(recorded.replay))
    return 0


def _history_line(players: Sequence[str], entry: HistoryEntry) -> str:
    event = entry.event
    body = event.body
    head = f"#{event.seq:<3}"
    if isinstance(body, Correction):
        by = body.by or "unknown"
        stamp = event.at.strftime("%Y-%m-%d %H:%M")
        what = correction_text(
            players, body, voids="voids #{}".format, amends="amends #{} to: {}".format
        )
        return f'{head} correction: {what} (by {by}, {stamp}: "{body.reason}")'
    where = f"hand {entry.hand}" if entry.hand is not None else "      "
    if entry.effective is not None and not entry.effective.is_hand:
        where = f"in hand {entry.hand}"
    text = outcome_text(players, body)
    if entry.status == "voided":
        text = f"[void, see #{entry.corrected_by}] {text}"
    elif entry.status == "amended":
        text = f"[amended by #{entry.corrected_by}] {text}"
    state = entry.before
    context = f"{state.round.value} round, {players[state.dealer]} deals"
    if state.game is not None and state.game.hand is not None:
        context = state.game.hand.label
    line = f"{head} {where:<10} {context:<22} {text}"
    if entry.refused:
        line += f"\n{'':14}Counts nothing: {entry.refused}. Void or amend it."
    amounts = "  ".join(
        f"{name} {signed_amount(amount) if state.game is None else f'{int(amount):+,}'}"
        for name, amount in zip(players, entry.amounts, strict=True)
        if amount
    )
    if amounts:
        line += f"\n{'':14}{amounts}"
    for warning in entry.stale_warnings:
        line += f"\n{'':14}Note: {warning}"
    return line


def _standings_text(replayed: Replay) -> str:
    state: TableState = replayed.state
    players = replayed.setup.players
    if state.game is not None:
        return _game_text(state, players)
    lines = []
    width = max(len(name) for name in players)
    for index, name in enumerate(players):
        dealer = "  (dealer)" if index == state.dealer else ""
        lines.append(
            f"  {name:<{width}}  {state.seat_wind(index).value}  "
            f"{signed_amount(state.totals[index]):>8}{dealer}"
        )
    table_points = state.table_points()
    if table_points is not None:
        return _table_points_text(state, players, table_points)
    planned = f" of {state.planned_hands}" if state.planned_hands is not None else ""
    streak = (
        f", dealer streak {state.streak}" if replayed.setup.engine_profile.dealer_streak else ""
    )
    if state.finished:
        status = f"All {state.planned_hands} hands played."
    else:
        status = (
            f"Next: hand {state.next_hand}{planned}, {state.round.english} round, "
            f"{players[state.dealer]} deals{streak}."
        )
    return f"Hands played: {state.hands}{planned}. {status}\n" + "\n".join(lines)


def _table_points_text(
    state: TableState, players: Sequence[str], table_points: Sequence[Fraction]
) -> str:
    """A table ranked by table points (mcr): each player's score and table points, by place;
    while the game is playing, the hand to play and the table points the present order would
    give."""
    width = max(len(name) for name in players)
    places = state.places()
    if state.finished:
        head = f"Game over: all {state.hands} hands played. Table points:"
    else:
        head = (
            f"Next: hand {state.next_hand} of {state.planned_hands}, {state.round.english} round "
            f"hand {state.passes % 4 + 1}, {players[state.dealer]} deals. Table points as it "
            "stands:"
        )
    lines = [head]
    for index in sorted(range(len(players)), key=lambda index: (places[index], index)):
        dealer = "  (dealer)" if index == state.dealer and not state.finished else ""
        lines.append(
            f"  {places[index]}. {players[index]:<{width}}  {state.seat_wind(index).value}  "
            f"{signed_amount(state.totals[index]):>6}  {format_amount(table_points[index]):>4}"
            f"{dealer}"
        )
    return "\n".join(lines)


def _game_text(state: TableState, players: Sequence[str]) -> str:
    """A points game's standings: points with thousands separators, each player's difference
    to first, the sticks and honba on the table, and at the end the final results."""
    game = state.game
    assert game is not None
    width = max(len(name) for name in players)
    lines = []
    if game.finished:
        lines.append(f"Game over: {end_text(game)}. Final results (uma and oka included):")
        for standing in game.results:
            lines.append(
                f"  {standing.place}. {standing.name:<{width}}  {points_text(standing.points):>8}"
                f"  {_signed_tenth(standing.result):>6}"
            )
        if game.deposits:
            lines.append(f"Leftover deposits {game.deposits:,} to first place.")
        return "\n".join(lines)
    hand = game.hand
    assert hand is not None
    lines.append(
        f"Next: {hand.label} ({players[game.dealer]} deals); on the table: "
        f"{_sticks(game.deposits // 1000)}, {game.honba} honba."
    )
    top = max(game.points)
    for index, name in enumerate(players):
        dealer = "  (dealer)" if index == game.dealer else ""
        behind = f"{game.points[index] - top:+,}" if game.points[index] != top else "first"
        lines.append(
            f"  {name:<{width}}  {game.seat_wind(index).value}  {game.points[index]:>8,}"
            f"  {behind:>8}{dealer}"
        )
    return "\n".join(lines)


def _sticks(count: int) -> str:
    return "1 riichi stick" if count == 1 else f"{count} riichi sticks"


def _signed_tenth(value: Any) -> str:
    shown = one_decimal(value)
    return shown if shown.startswith("-") else f"+{shown}"
