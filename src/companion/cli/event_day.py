"""`companion event timer|rules|swap|end|reopen|entrant|results|chombos ...`: a tournament's day
from the command line (issue 39; docs/event_day.md): a round's timer started, extended, paused
and resumed; the day's rules (the hands after time is up, a voided table's score); a table's
seats fixed; a table ended early, and reopened; the reports (EMA numbers, the EMA's results
file, the chombos)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.common import print_json, whole_number, write_output
from companion.cli.event_common import answer, count_text, event_book


def register(sub: Any, common: Any, as_json: Any, by: Any) -> None:
    """Add the day's commands to `companion event`'s subparsers."""
    at_table = argparse.ArgumentParser(add_help=False)
    at_table.add_argument("event", metavar="ID")
    at_table.add_argument("--table", required=True, type=whole_number, metavar="T")
    at_table.add_argument(
        "--round", type=whole_number, metavar="R", help="the table's round (default: the latest)"
    )
    timer = sub.add_parser(
        "timer",
        parents=[common, as_json, by],
        help="start, extend, pause or resume a round's timer (every table page shows it)",
    )
    timer.add_argument("event", metavar="ID")
    timer.add_argument("--round", required=True, type=whole_number, metavar="R")
    change = timer.add_mutually_exclusive_group(required=True)
    change.add_argument(
        "--minutes", type=whole_number, metavar="M", help="start it: M minutes from now"
    )
    change.add_argument(
        "--extend", type=whole_number, metavar="M", help="add M minutes to a running timer"
    )
    change.add_argument("--pause", action="store_true", help="stop it where it stands")
    change.add_argument("--resume", action="store_true", help="run a paused timer again")
    timer.set_defaults(handler=_timer)

    rules = sub.add_parser(
        "rules",
        parents=[common, as_json, by],
        help="the day's rules: hands after time is up, a voided table's score",
    )
    rules.add_argument("event", metavar="ID")
    rules.add_argument(
        "--time-up-hands",
        type=whole_number,
        metavar="N",
        help='hands after the one in play when time is up (0: finish it; 1: "+1 hand")',
    )
    rules.add_argument(
        "--void-score",
        metavar="SCORE",
        help='what each player of a voided table scores: a number, or "average"',
    )
    rules.set_defaults(handler=_rules)

    swap = sub.add_parser(
        "swap",
        parents=[common, as_json, by, at_table],
        help="fix a table's seats after hands were recorded: its record is replayed",
    )
    who = swap.add_mutually_exclusive_group(required=True)
    who.add_argument("--players", metavar="A,B", help="two players of the table who swap seats")
    who.add_argument(
        "--order", metavar="E,S,W,N", help="or all of them (four, or three) in their seat order"
    )
    swap.set_defaults(handler=_swap)

    end = sub.add_parser(
        "end",
        parents=[common, as_json, by, at_table],
        help="end a table before its game is over: as it stands, or void",
    )
    how = end.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--as-it-stands",
        dest="mode",
        action="store_const",
        const="as-it-stands",
        help="counted as if the game ended now",
    )
    how.add_argument(
        "--void",
        dest="mode",
        action="store_const",
        const="void",
        help="no result: its players get the event's void score",
    )
    end.add_argument("--reason", required=True, help="why (kept in the record and shown)")
    end.set_defaults(handler=_end)

    reopen = sub.add_parser(
        "reopen",
        parents=[common, as_json, by, at_table],
        help="take back a table's early end, while its round is not closed",
    )
    reopen.set_defaults(handler=_reopen)

    entrant = sub.add_parser(
        "entrant",
        parents=[common, as_json, by],
        help="a player's EMA number and country, for the results file",
    )
    entrant.add_argument("event", metavar="ID")
    entrant.add_argument("--player", required=True, metavar="NAME")
    entrant.add_argument("--ema-id", metavar="N", help='eight digits ("" clears it)')
    entrant.add_argument(
        "--country", metavar="XXX", help='three letters such as FRA ("" clears it)'
    )
    entrant.set_defaults(handler=_entrant)

    results = sub.add_parser(
        "results",
        parents=[common, as_json],
        help="the results with EMA numbers; --ema: the EMA's results file (CSV)",
    )
    results.add_argument("event", metavar="ID")
    results.add_argument("--ema", action="store_true", help="the EMA's results columns as CSV")
    results.add_argument("--output", "-o", metavar="FILE", help="write to FILE, not stdout")
    results.set_defaults(handler=_results)

    chombos = sub.add_parser(
        "chombos", parents=[common, as_json], help="the chombos recorded at the event's tables"
    )
    chombos.add_argument("event", metavar="ID")
    chombos.set_defaults(handler=_chombos)


def _timer(args: argparse.Namespace) -> int:
    def act(book: Any) -> Any:
        if args.minutes is not None:
            return book.start_timer(args.event, args.round, args.minutes, by=args.by)
        if args.extend is not None:
            return book.extend_timer(args.event, args.round, args.extend, by=args.by)
        if args.pause:
            return book.pause_timer(args.event, args.round, by=args.by)
        return book.resume_timer(args.event, args.round, by=args.by)

    def text(timer: Any) -> str:
        ends = timer.ends_at.strftime("%H:%M UTC")
        if timer.paused_at is not None:
            left = int(timer.left_at(timer.paused_at).total_seconds()) // 60
            return f"Round {timer.round}: paused with {count_text(left, 'minute')} left."
        return f"Round {timer.round}: {count_text(timer.minutes, 'minute')}, ends at {ends}."

    return answer(args, act, text)


def _entrant(args: argparse.Namespace) -> int:
    def text(entry: Any) -> str:
        details = entry.details or {}
        ema = details.get("ema_id") or "none"
        return f"{entry.player}: EMA number {ema}, country {details.get('country') or 'none'}."

    return answer(
        args,
        lambda book: book.set_entrant(
            args.event, args.player, ema_id=args.ema_id, country=args.country, by=args.by
        ),
        text,
    )


def _results(args: argparse.Namespace) -> int:
    with event_book(args) as book:
        if args.ema:
            return write_output(book.ema_csv(args.event), args.output)
        lines = book.results(args.event)
    if args.json:
        return print_json([line.to_json() for line in lines])
    text = "".join(
        f"{'=' if line.tied else ''}{line.place}. {line.name}"
        f"{f' ({line.ema_id})' if line.ema_id else ''}: {line.rank_points}"
        f"{f' / {line.score}' if line.score else ''}\n"
        for line in lines
    )
    return write_output(text, args.output)


def _chombos(args: argparse.Namespace) -> int:
    with event_book(args) as book:
        found = book.chombos(args.event)
    if args.json:
        return print_json([chombo.to_json() for chombo in found])
    if not found:
        print("No chombo recorded.")
    for chombo in found:
        at = chombo.at.strftime("%H:%M UTC")
        where = f"Round {chombo.round}, table {chombo.table}"
        print(f"{where}: {chombo.player} (entry {chombo.seq}, {at})")
    return 0


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [name.strip() for name in text.split(",")]


def _swap(args: argparse.Namespace) -> int:
    def text(entry: Any) -> str:
        details = entry.details or {}
        return (
            f"Round {entry.round}, table {details['table']}: "
            f"{', '.join(details['before'])} -> {', '.join(details['after'])} (East first); "
            "its hands are replayed with the seats fixed."
        )

    return answer(
        args,
        lambda book: book.fix_seats(
            args.event,
            args.table,
            round_number=args.round,
            players=_names(args.players),
            order=_names(args.order),
            by=args.by,
        ),
        text,
    )


def _end(args: argparse.Namespace) -> int:
    def text(entry: Any) -> str:
        details = entry.details or {}
        how = "void" if details["mode"] == "void" else "as it stands"
        return f"Round {entry.round}, table {details['table']}: ended {how} ({entry.reason})."

    return answer(
        args,
        lambda book: book.end_table(
            args.event, args.table, args.mode, args.reason, round_number=args.round, by=args.by
        ),
        text,
    )


def _reopen(args: argparse.Namespace) -> int:
    return answer(
        args,
        lambda book: book.reopen_table(args.event, args.table, round_number=args.round, by=args.by),
        lambda entry: (
            f"Round {entry.round}, table {(entry.details or {})['table']}: reopened; it plays on."
        ),
    )


def _rules(args: argparse.Namespace) -> int:
    def text(rules: Any) -> str:
        hands = (
            "finish the hand in play"
            if rules.time_up_hands == 0
            else f"the hand in play and {count_text(rules.time_up_hands, 'more hand')}"
        )
        return f"When time is up: {hands}. A voided table scores {rules.void_score}."

    return answer(
        args,
        lambda book: book.set_day_rules(
            args.event,
            time_up_hands=args.time_up_hands,
            void_score=args.void_score,
            by=args.by,
        ),
        text,
    )
