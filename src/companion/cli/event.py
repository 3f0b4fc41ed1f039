"""`companion event ...`: run an event (several tables over several rounds) from the command
line: make it, seat each round (its tables are ordinary ledger tables), follow the standings,
and record the organiser's penalties, withdrawals, late entries and round timers.

Every command takes `--db URL` like `companion table`. Organiser commands on a local database
need no token, as table writes need none there; the organiser's link (printed by `event new`)
is what the web pages ask for.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from companion.cli import event_day
from companion.cli.common import (
    PUBLIC_URL_ENV,
    database_parent,
    json_parent,
    parse_option,
    print_json,
    read_input,
    whole_number,
    write_output,
)
from companion.cli.event_common import answer, count_text, event_book
from companion.cli.table import joined_text, server_address
from companion.rules import table_profiles
from companion.settlement import format_amount, signed_amount

if TYPE_CHECKING:
    from companion.events.standings import Standings
    from companion.ledger.event_book.views import EventView, SeatedRound

WINDS = ("East", "South", "West", "North")


def register(commands: Any) -> None:
    """Add the `event` command group to the subparsers of `companion`."""
    event = commands.add_parser(
        "event",
        help="run an event: several tables over several rounds, one leaderboard",
        description="An event seats its players at tables of four, round by round (nobody meets "
        "twice while that can be avoided), each table an ordinary ledger table, and ranks "
        "everyone across the tables.",
    )
    sub = event.add_subparsers(dest="event_command", required=True, metavar="COMMAND")
    common, as_json = database_parent(), json_parent()
    by = argparse.ArgumentParser(add_help=False)
    by.add_argument("--by", default="", metavar="NAME", help="who decides (kept in the record)")
    keyed = argparse.ArgumentParser(add_help=False)
    keyed.add_argument(
        "--key", metavar="K", help="idempotency key: the same key again records nothing new"
    )

    new = sub.add_parser("new", parents=[common, as_json, by], help="make an event; prints its id")
    new.add_argument("--name", required=True, help="what the event is called")
    new.add_argument("--profile", default="sg", help=f"one of {', '.join(table_profiles())}")
    new.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a profile option; repeatable"
    )
    players = new.add_mutually_exclusive_group(required=True)
    players.add_argument(
        "--players-file",
        metavar="FILE",
        help="the players, one name a line (- for stdin); blank lines are skipped",
    )
    players.add_argument(
        "--players", metavar="A,B,C,...", help="or the players typed in, separated by commas"
    )
    new.add_argument("--rounds", required=True, type=whole_number, metavar="N")
    new.add_argument("--seed", type=whole_number, metavar="N", help="the seating's seed")
    new.add_argument(
        "--first-round",
        choices=("random", "listed", "balanced"),
        default="random",
        help="round 1 drawn at random, or as listed: the first four at table 1, East first; or "
        "balanced by rating: the players best first (with --club, by the club's rating) dealt "
        "to the tables in snake order",
    )
    new.add_argument(
        "--later-rounds",
        choices=("no-repeats", "by-standing"),
        default="no-repeats",
        help="later rounds: nobody meets twice, or neighbours in the standing (Swiss)",
    )
    new.add_argument(
        "--leftover",
        choices=("byes", "substitutes"),
        help="players over a multiple of four: they sit out (byes), or substitutes fill in",
    )
    new.add_argument(
        "--hands", type=whole_number, metavar="N", help="each table's planned number of hands"
    )
    new.add_argument(
        "--table-rounds",
        type=whole_number,
        metavar="N",
        help="each table's planned rounds of the deal (instead of --hands)",
    )
    new.add_argument(
        "--club",
        metavar="ID",
        help="the club the event belongs to: its players are matched to the club's roster, "
        "new names join it, and its tables are the club's",
    )
    _public_url(new)
    new.set_defaults(handler=_new)

    seat = sub.add_parser(
        "seat",
        parents=[common, as_json, by],
        help="seat a round: its tables, each a ledger table, players East first",
    )
    seat.add_argument("event", metavar="ID")
    seat.add_argument("--round", required=True, type=whole_number, metavar="R")
    seat.add_argument(
        "--confirm",
        action="store_true",
        help="seat it even though tables of the rounds before are still playing (without it, "
        "such a round is refused and the tables listed)",
    )
    _public_url(seat)
    seat.set_defaults(handler=_seat)

    unseat = sub.add_parser(
        "unseat",
        parents=[common, as_json, by],
        help="take the last round's seating back, while no hand is recorded at its tables",
    )
    unseat.add_argument("event", metavar="ID")
    unseat.add_argument("--round", required=True, type=whole_number, metavar="R")
    unseat.set_defaults(handler=_unseat)

    standings = sub.add_parser(
        "standings", parents=[common, as_json], help="the leaderboard across the tables"
    )
    standings.add_argument("event", metavar="ID")
    standings.set_defaults(handler=_standings)

    show = sub.add_parser(
        "show", parents=[common, as_json], help="the event: players, rounds, tables, timers"
    )
    show.add_argument("event", metavar="ID")
    show.set_defaults(handler=_show)

    penalty = sub.add_parser(
        "penalty",
        parents=[common, as_json, by, keyed],
        help="a penalty (negative) or correction of a player's total, with a reason",
    )
    penalty.add_argument("event", metavar="ID")
    penalty.add_argument("--player", required=True, metavar="NAME")
    penalty.add_argument(
        "--amount",
        required=True,
        metavar="N",
        help="added to the total: -10 for a penalty of 10; 2.5 and 5/2 are read exactly",
    )
    penalty.add_argument("--reason", required=True, help="why (kept in the record and shown)")
    penalty.set_defaults(handler=_penalty)

    withdraw = sub.add_parser(
        "withdraw",
        parents=[common, as_json, by, keyed],
        help="a player leaves after a round (kept on the leaderboard with what they played)",
    )
    withdraw.add_argument("event", metavar="ID")
    withdraw.add_argument("--player", required=True, metavar="NAME")
    withdraw.add_argument("--after-round", required=True, type=whole_number, metavar="R")
    withdraw.set_defaults(handler=_withdraw)

    join = sub.add_parser(
        "join",
        parents=[common, as_json, by, keyed],
        help="a late entry, from a round not seated yet",
    )
    join.add_argument("event", metavar="ID")
    join.add_argument("--player", required=True, metavar="NAME")
    join.add_argument("--round", required=True, type=whole_number, metavar="R")
    join.set_defaults(handler=_join)

    # The round timer, the seat fixes, tables ended early and the reports: cli/event_day.py.
    event_day.register(sub, common, as_json, by)

    export = sub.add_parser(
        "export",
        parents=[common],
        help="the standings as CSV, or the whole event (every table's record) as JSON",
    )
    export.add_argument("event", metavar="ID")
    export.add_argument("--format", choices=("csv", "json"), default="json")
    export.add_argument("--output", "-o", metavar="FILE", help="write to FILE, not stdout")
    export.set_defaults(handler=_export)


def _public_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the server's address as the phones open it, for the printed links "
        f"(default: {PUBLIC_URL_ENV}, else this machine's network address)",
    )


# ---------------------------------------------------------------------------------------------
# Handlers


def _server(args: argparse.Namespace) -> str:
    return server_address(args.public_url or os.environ.get(PUBLIC_URL_ENV) or None)


def read_players(source: str) -> list[str]:
    """One name a line; blank lines and the spaces around a name are left out."""
    return [line.strip() for line in read_input(source).splitlines() if line.strip()]


def _new(args: argparse.Namespace) -> int:
    options = dict(parse_option(text) for text in args.option or ())
    if args.players_file is not None:
        players = read_players(args.players_file)
    else:
        players = [name.strip() for name in args.players.split(",") if name.strip()]
    server = _server(args)
    roster: dict[str, list[str]] | None = None
    with event_book(args) as book:
        if args.club is not None:
            from companion.ledger.club_book.service import ClubBook

            clubs = ClubBook(book.ledger)
            # Refused before anything is written: an unknown club, one of another family.
            clubs.check_attachable(args.club, args.profile)
            if args.first_round == "balanced":
                players = clubs.rated_order(args.club, players)
        created = book.create_event(
            args.name,
            args.profile,
            options,
            players,
            args.rounds,
            seed=args.seed,
            first_round=args.first_round,
            later_rounds=args.later_rounds,
            leftover=args.leftover,
            hands=args.hands,
            table_rounds=args.table_rounds,
            by=args.by,
        )
        if args.club is not None:
            roster = clubs.attach_event(args.club, created.id, by=args.by).to_json()
        view = book.event(created.id)
    read = f"{server}/e/{created.id}"
    organise = f"{read}#token={quote(created.token, safe='')}"
    if args.json:
        return print_json(
            {"id": created.id, "token": created.token, "organiser_link": organise}
            | {"read_link": read, "event": view.to_json()}
            | ({} if roster is None else {"club": args.club, "roster": roster})
        )
    print(created.id)
    print(
        f"Event {created.id} ({view.profile}): {view.name}, {len(view.players)} players, "
        f"{count_text(view.rounds, 'round')}; seat round 1 with: companion event seat "
        f"{created.id} --round 1\n"
        "Organiser's link (shown once: it holds the organiser's token):\n"
        f"  {organise}\n"
        f"Leaderboard, for everyone:\n  {read}",
        file=sys.stderr,
    )
    if roster is not None:
        print(joined_text(args.club, roster), file=sys.stderr)
    return 0


def _seat(args: argparse.Namespace) -> int:
    from companion.ledger.event_book.errors import TablesPlayingError

    server = _server(args)
    with event_book(args) as book:
        try:
            seated = book.seat_round(args.event, args.round, by=args.by, confirm=args.confirm)
        except TablesPlayingError as refused:
            return _still_playing(args, refused.params["playing"])
        tokens = book.table_tokens(args.event)
    links = {
        table.table: f"{server}/t/{table.table}#token={quote(tokens[table.table], safe='')}"
        for table in seated.tables
    }
    if args.json:
        return print_json(seated.to_json() | {"write_links": links})
    print(_round_text(seated))
    print(
        "Write links, one per table (each holds its table's write token):\n"
        + "\n".join(f"  Table {table.number}: {links[table.table]}" for table in seated.tables),
        file=sys.stderr,
    )
    return 0


def _still_playing(args: argparse.Namespace, playing: list[dict[str, Any]]) -> int:
    """Round R refused while tables still play: each of them, and how to seat it all the same
    (exit status 2, as every refusal)."""
    lines = [f"companion: round {args.round} is not seated: tables still playing"]
    lines.extend(
        f"  Table {table['number']} of round {table['round']} ({table['table']})"
        for table in playing
    )
    lines.append(
        f"Seat it all the same with: companion event seat {args.event} --round {args.round} "
        "--confirm"
    )
    print("\n".join(lines), file=sys.stderr)
    from companion.cli import EXIT_BAD_INPUT

    return EXIT_BAD_INPUT


def _unseat(args: argparse.Namespace) -> int:
    def text(entry: Any) -> str:
        tables = dict((entry.details or {}).get("tables", {}))
        listed = ", ".join(f"table {number} ({table})" for number, table in tables.items())
        return (
            f"Round {entry.round}'s seating taken back; its tables are no longer the event's: "
            f"{listed}."
        )

    return answer(args, lambda book: book.unseat_round(args.event, args.round, by=args.by), text)


def _standings(args: argparse.Namespace) -> int:
    with event_book(args) as book:
        view = book.event(args.event)
        board = book.standings(args.event)
    if args.json:
        return print_json({"id": view.id, "name": view.name} | board.to_json())
    print(standings_text(view, board))
    return 0


def _show(args: argparse.Namespace) -> int:
    with event_book(args) as book:
        view = book.event(args.event)
    if args.json:
        return print_json(view.to_json())
    print(_event_text(view))
    return 0


def _penalty(args: argparse.Namespace) -> int:
    return answer(
        args,
        lambda book: book.adjust(
            args.event, args.player, args.amount, args.reason, by=args.by, key=args.key
        ),
        lambda entry: (
            f"{entry.player}: {signed_amount(entry.amount or Fraction(0))} ({entry.reason})"
        ),
    )


def _withdraw(args: argparse.Namespace) -> int:
    return answer(
        args,
        lambda book: book.withdraw(
            args.event, args.player, args.after_round, by=args.by, key=args.key
        ),
        lambda player: f"{player.name} withdraws after round {player.withdraws_after}.",
    )


def _join(args: argparse.Namespace) -> int:
    return answer(
        args,
        lambda book: book.add_player(args.event, args.player, args.round, by=args.by, key=args.key),
        lambda player: f"{player.name} joins in round {player.joins}.",
    )


def _export(args: argparse.Namespace) -> int:
    with event_book(args) as book:
        if args.format == "csv":
            text = book.export_csv(args.event)
        else:
            text = json.dumps(book.export_json(args.event), ensure_ascii=False, indent=2) + "\n"
    return write_output(text, args.output)


# ---------------------------------------------------------------------------------------------
# Output


def _round_text(seated: SeatedRound) -> str:
    unavoidable = (
        ""
        if seated.unavoidable_repeats is None
        else f" ({seated.total_repeats} so far, {seated.unavoidable_repeats} unavoidable)"
    )
    lines = [
        f"Round {seated.number}: {count_text(len(seated.tables), 'table')}, "
        f"{count_text(seated.repeats, 'repeat')}{unavoidable}, "
        f"{count_text(seated.seat_repeats, 'seat repeat')}"
    ]
    for table in seated.tables:
        winds = WINDS[: len(table.players)]  # East, South and West at a table of three
        seats = ", ".join(f"{wind} {name}" for wind, name in zip(winds, table.players, strict=True))
        state = "finished" if table.finished else count_text(table.hands, "hand")
        lines.append(f"  Table {table.number} ({table.table}, {state}): {seats}")
    if seated.byes:
        lines.append(f"  Byes: {', '.join(seated.byes)}")
    if seated.timer is not None:
        ends = seated.timer.ends_at.strftime("%H:%M UTC")
        lines.append(f"  Timer: {count_text(seated.timer.minutes, 'minute')}, ends at {ends}")
    return "\n".join(lines)


def _event_text(view: EventView) -> str:
    players = ", ".join(
        player.name
        + (f" (from round {player.joins})" if player.joins > 1 else "")
        + (f" (withdrew after round {player.withdraws_after})" if player.withdrawn else "")
        for player in view.players
    )
    lines = [
        f"{view.name} ({view.id}, {view.profile}): {count_text(view.rounds, 'round')}, "
        f"seed {view.seed}, round 1 {view.first_round}, later rounds {view.later_rounds}"
        + (f", {view.leftover}" if view.leftover else ""),
        f"Players ({len(view.players)}): {players}",
    ]
    if view.problem is not None:
        lines.append(f"The next round cannot be seated: {view.problem.message}")
    if view.unavoidable_repeats:
        lines.append(
            f"Repeats (two players meeting again at a table): at least "
            f"{view.unavoidable_repeats[-1]} cannot be avoided over "
            f"{count_text(len(view.unavoidable_repeats), 'round')}."
        )
    progress = view.progress
    if progress is None:
        lines.append("No round seated yet.")
    else:
        lines.append(
            f"Round {progress['round']}: {progress['finished']} of "
            f"{count_text(progress['tables'], 'table')} finished"
        )
    lines.extend(_round_text(seated) for seated in view.seated)
    return "\n".join(lines)


def standings_text(view: EventView, board: Standings) -> str:
    """The leaderboard as lines: rank (with = on a tie), name, total, tables, marks. Table
    points (MCR) read as they are and the score after them signed, as a table's own standings
    and the event's pages show them; money and a points game's results are signed."""
    from companion.events.standings import StandingRule

    if not board.rows:
        return f"{view.name}: no table seated yet."
    table_points = board.rule is StandingRule.TABLE_POINTS
    total_text = format_amount if table_points else signed_amount
    second_text = signed_amount if table_points else format_amount
    width = max(len(row.name) for row in board.rows)
    lines = [f"{view.name} ({board.rule.value})"]
    for row in board.rows:
        rank = f"{row.rank}{'=' if row.tied else ''}"
        marks = [count_text(row.tables, "table")]
        if row.provisional:
            marks.append("playing")
        if row.withdrawn:
            marks.append("withdrew")
        marks.extend(
            f"{signed_amount(penalty.amount)} {penalty.reason}" for penalty in row.penalties
        )
        second = "" if row.secondary is None else f"  ({second_text(row.secondary)})"
        lines.append(
            f"{rank:>4} {row.name:<{width}}  {total_text(row.total):>8}{second}  {'; '.join(marks)}"
        )
    return "\n".join(lines)
