"""`companion table win | draw | chombo | stop | payout | amend | void`: the record commands.

Each builds its `Record` once, by one builder (`record_of`) from the flags of its kind, and
prints what it recorded by one printer (`show_recorded`). What every record carries besides its
kind's own fields (`records.Extras`) is a flag of every record command, made from its
declaration (`add_extras_arguments`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from companion.cli.common import print_json, read_input, whole_number
from companion.cli.table_show import COMMAND_LINE, history_line, standings_text
from companion.errors import InvalidRequestError
from companion.ledger.errors import LedgerError
from companion.ledger.export import entry_json
from companion.ledger.records import (
    STOP_MEANING,
    ChomboRecord,
    DrawRecord,
    Extras,
    PayoutRecord,
    Record,
    StopRecord,
    WinnerRecord,
    WinRecord,
    extra_fields,
)
from companion.rules import table_profiles

if TYPE_CHECKING:
    from companion.ledger.repository import Ledger
    from companion.ledger.store import Recorded


def _points_games() -> str:
    """The profiles whose tables play a points game (riichi, sanma), as the help names them."""
    return ", ".join(id for id, profile in table_profiles().items() if profile.points_game)


def _money_games() -> str:
    """The profiles whose tables a stop ends as a session (no points game, no fixed length)."""
    return ", ".join(
        id
        for id, profile in table_profiles().items()
        if not profile.points_game and profile.game_hands is None
    )


def open_ledger(args: argparse.Namespace) -> Ledger:
    # Imported here: SQLAlchemy and Alembic load only for the table commands.
    from companion.ledger.repository import Ledger

    return Ledger.open(args.db)


# ---------------------------------------------------------------------------------------------
# The commands


def register_records(sub: Any, recording: Sequence[argparse.ArgumentParser]) -> None:
    """`win`, `draw`, `chombo`, `stop` and `payout`: each records its kind of hand."""
    win = sub.add_parser(
        "win",
        parents=recording,
        help="record a win (agreed tai or the full hand)",
        description="Record a win. Several winners on one discard (tw): repeat --winner and "
        "give one --tai or one --hand per winner, in the same order.",
    )
    _win_arguments(win, required=True)
    draw = sub.add_parser(
        "draw",
        parents=recording,
        help="record a drawn hand (riichi: the tenpai players, the riichi declarations)",
    )
    _draw_arguments(draw)
    chombo = sub.add_parser(
        "chombo",
        parents=recording,
        help=f"{_points_games()}: record a chombo (a foul; the hand is dealt again)",
    )
    chombo.add_argument("--player", required=True, metavar="NAME", help="who fouled")
    stop_meaning = STOP_MEANING.format(money=_money_games(), points=_points_games())
    sub.add_parser(
        "stop",
        parents=recording,
        help=stop_meaning,
        description=f"Stop the table. At {stop_meaning}.",
    )
    payout = sub.add_parser(
        "payout",
        parents=recording,
        help="record an instant payout (sg-table)",
    )
    _payout_arguments(payout, required=True)
    for kind, parser in sub.choices.items():
        if kind in BUILDERS:
            parser.add_argument("table", metavar="ID")
            add_extras_arguments(parser)
            parser.set_defaults(handler=_record, kind=kind)


def register_corrections(sub: Any, parents: Sequence[argparse.ArgumentParser]) -> None:
    """`void` and `amend`: a correction of a recorded entry."""
    void = sub.add_parser("void", parents=parents, help="void a recorded entry (kept in history)")
    void.add_argument("table", metavar="ID")
    void.add_argument(
        "entry_number", type=whole_number, metavar="N", help="the entry number from the history"
    )
    _correction_arguments(void)
    void.set_defaults(handler=_void)

    amend = sub.add_parser(
        "amend",
        parents=parents,
        help="replace a recorded entry by a corrected one (the original is kept)",
        description="Replace entry N: give the corrected win (--winner ...), --draw, or the "
        "corrected payout (--player ... --event ...).",
    )
    amend.add_argument("table", metavar="ID")
    amend.add_argument(
        "entry_number", type=whole_number, metavar="N", help="the entry number from the history"
    )
    _correction_arguments(amend)
    amend.add_argument("--draw", action="store_true", help="it was a drawn hand")
    amend.add_argument("--chombo", metavar="NAME", help=f"{_points_games()}: it was NAME's chombo")
    _draw_arguments(amend, riichi=False)
    _win_arguments(amend, required=False)
    _payout_arguments(amend, required=False)
    add_extras_arguments(amend)
    amend.set_defaults(handler=_amend)


def _record(args: argparse.Namespace) -> int:
    record = record_of(args, args.kind)
    with open_ledger(args) as ledger:
        recorded = ledger.record(args.table, record, key=args.key, expect_hand=args.expect_hand)
    return show_recorded(args, recorded)


def _void(args: argparse.Namespace) -> int:
    with open_ledger(args) as ledger:
        recorded = ledger.void(
            args.table, args.entry_number, reason=args.reason, by=args.by, key=args.key
        )
    return show_recorded(args, recorded)


def _amend(args: argparse.Namespace) -> int:
    record = record_of(args, _amended_kind(args))
    with open_ledger(args) as ledger:
        recorded = ledger.amend(
            args.table, args.entry_number, record, reason=args.reason, by=args.by, key=args.key
        )
    return show_recorded(args, recorded)


def _amended_kind(args: argparse.Namespace) -> str:
    """Which kind of record `amend`'s flags give: exactly one."""
    given = {
        "draw": args.draw,
        "win": bool(args.winner),
        "payout": bool(args.player or args.event),
        "chombo": bool(args.chombo),
    }
    if sum(given.values()) != 1:
        raise LedgerError(
            "give the corrected entry: --draw, a win (--winner ...), a payout "
            "(--player ... --event ...) or a chombo (--chombo NAME)"
        )
    kind = next(kind for kind, flagged in given.items() if flagged)
    if kind == "payout" and not (args.player and args.event):
        raise LedgerError("a corrected payout needs --player and --event")
    return kind


# ---------------------------------------------------------------------------------------------
# The one builder


def record_of(args: argparse.Namespace, kind: str) -> Record:
    """The record a command's flags give for a hand of `kind`, built once: its kind's fields
    and the extras every record has."""
    return BUILDERS[kind](args, extras_of(args))


def add_extras_arguments(
    parser: argparse.ArgumentParser, extras_type: type[Extras] = Extras
) -> None:
    """A flag for each of a record's extras (`--note TEXT` for `note`), from its declaration."""
    for extra in extra_fields(extras_type):
        parser.add_argument(
            f"--{extra.name.replace('_', '-')}",
            dest=f"extra_{extra.name}",
            type=whole_number if extra.kind is int else str,
            default=extra.default,
            metavar="N" if extra.kind is int else "TEXT",
            help=extra.description,
        )


def extras_of(args: argparse.Namespace, extras_type: type[Extras] = Extras) -> Extras:
    """The extras a command line gives (`add_extras_arguments`' flags)."""
    return extras_type(
        **{
            extra.name: getattr(args, f"extra_{extra.name}", extra.default)
            for extra in extra_fields(extras_type)
        }
    )


def _win_record(args: argparse.Namespace, extras: Extras) -> WinRecord:
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
        return WinRecord(
            tuple(WinnerRecord(n, **v) for n, v in zip(names, values, strict=True)),
            args.discarder,
            args.liable,
            riichi,
            extras,
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
            WinnerRecord(n, tai=t, flowers=f)
            for n, t, f in zip(names, tais, flowers or [None] * len(tais), strict=True)
        )
    else:
        winners = tuple(
            WinnerRecord(n, hand=_read_hand(f)) for n, f in zip(names, hands, strict=True)
        )
    return WinRecord(winners, args.discarder, args.liable, riichi, extras)


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


def _draw_record(args: argparse.Namespace, extras: Extras) -> DrawRecord:
    return DrawRecord(
        tenpai=_names(args.tenpai),
        riichi=_names(getattr(args, "riichi", None)),
        nagashi=_names(args.nagashi),
        abortive=args.abortive,
        extras=extras,
    )


def _chombo_record(args: argparse.Namespace, extras: Extras) -> ChomboRecord:
    # `amend --chombo NAME` names the player with the flag itself.
    return ChomboRecord(getattr(args, "chombo", None) or args.player, extras)


def _stop_record(args: argparse.Namespace, extras: Extras) -> StopRecord:
    return StopRecord(extras)


def _payout_record(args: argparse.Namespace, extras: Extras) -> PayoutRecord:
    return PayoutRecord(args.player, args.event, args.at_start, extras)


BUILDERS: dict[str, Callable[[argparse.Namespace, Extras], Record]] = {
    "win": _win_record,
    "draw": _draw_record,
    "chombo": _chombo_record,
    "stop": _stop_record,
    "payout": _payout_record,
}
"""Each record command's kind, and how its flags make its record."""


def _names(values: Sequence[str] | None) -> tuple[str, ...]:
    """Names given as `A,B` and repeated options, in order."""
    return tuple(
        name.strip() for value in values or () for name in value.split(",") if name.strip()
    )


# ---------------------------------------------------------------------------------------------
# The flags


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
        ("--han", "han", f"{_points_games()}: the hand's han (one per winner, with --fu)"),
        ("--yakuman", "yakuman", f"{_points_games()}: or the hand's yakuman count"),
        (
            "--limit",
            "limit",
            f"{_points_games()}: or a limit: mangan, haneman, baiman, sanbaiman, yakuman",
        ),
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
        help=f"{_points_games()}: the fu of the --han before it (may be left out from 5 han up)",
    )
    parser.add_argument(
        "--riichi",
        action="append",
        metavar="A,B",
        help=f"{_points_games()}: who declared riichi in this hand (a stick each); repeatable",
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
        help=f"{_points_games()}: who was tenpai at the exhaustive draw; repeatable",
    )
    parser.add_argument(
        "--nagashi",
        action="append",
        metavar="NAME",
        help=f"{_points_games()}: paid a nagashi mangan",
    )
    parser.add_argument(
        "--abortive",
        metavar="KIND",
        help=f"{_points_games()}: an abortive draw: nine_terminals, four_winds, four_kongs, "
        "four_riichi, triple_ron (those the table can have)",
    )
    if riichi:
        parser.add_argument(
            "--riichi",
            action="append",
            metavar="A,B",
            help=f"{_points_games()}: who declared riichi in this hand (a stick each); repeatable",
        )


def _payout_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--player", required=required, metavar="NAME", help="who receives")
    parser.add_argument(
        "--event",  # the payout's kind, under its JSON name (`event`)
        required=required,
        metavar="EVENT",
        help="bite, own_flowers, four_flowers, four_seasons, animal_set, all_animals, "
        "exposed_kong, concealed_kong",
    )
    parser.add_argument("--at-start", dest="at_start", action="store_true", help="held when dealt")


def _correction_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reason", required=True, help="why (kept in the history)")
    parser.add_argument(
        "--by",
        default=COMMAND_LINE,
        metavar="NAME",
        help="who makes the correction (without it: the command line)",
    )


# ---------------------------------------------------------------------------------------------
# The one printer


def show_recorded(args: argparse.Namespace, recorded: Recorded) -> int:
    """What every record and correction command prints: the entry as recorded and the standings
    after it (`--json`: both as JSON)."""
    players = recorded.replay.setup.players
    entry = recorded.entry
    if args.json:
        return print_json(
            {
                "duplicate": recorded.duplicate,
                "event": entry_json(players, entry),  # the JSON key stays
                "standings": recorded.replay.state.to_json(),
            }
        )
    if recorded.duplicate:
        print(f"Already recorded as entry {recorded.stored.seq} (same key): nothing new.")
    print(history_line(players, entry))
    print(standings_text(recorded.replay))
    return 0
