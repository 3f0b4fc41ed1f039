"""`companion club ...`: a club from the command line: make it, keep its roster (add, rename,
merge, unmerge), attach tables and events, and read its ratings and a player's stats and games
(docs/clubs.md). Tables and events join a club with `--club ID` on `companion table new` and
`companion event new`.

Every command takes `--db URL` like `companion table`. Roster commands on a local database need
no token, as table writes need none there; the organiser's link (printed by `club new`) is what
the web pages and the API ask for.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from companion.cli.common import (
    PUBLIC_URL_ENV,
    database_parent,
    json_parent,
    print_json,
    whole_number,
    write_output,
)

if TYPE_CHECKING:
    from companion.ledger.club_book.roster import RosterPlayer
    from companion.ledger.club_book.service import ClubBook

RATINGS = ("openskill", "tenhou", "total")


def register(commands: Any) -> None:
    """Add the `club` command group to the subparsers of `companion`."""
    club = commands.add_parser(
        "club",
        help="a club: its players, their ratings and stats across tables and events",
        description="A club keeps its players across tables and events, rates them game by "
        "game (OpenSkill, Tenhou-style R, totals) and counts their stats.",
    )
    sub = club.add_subparsers(dest="club_command", required=True, metavar="COMMAND")
    common, as_json = database_parent(), json_parent()
    by = argparse.ArgumentParser(add_help=False)
    by.add_argument("--by", default="", metavar="NAME", help="who decides (kept in the record)")
    period = argparse.ArgumentParser(add_help=False)
    period.add_argument("--as-of", metavar="DATE", help="the games finished by this day")
    period.add_argument("--since", metavar="DATE", help="the games from this day (a season)")

    new = sub.add_parser("new", parents=[common, as_json, by], help="make a club; prints its id")
    new.add_argument("--name", required=True, help="what the club is called")
    new.add_argument(
        "--rating",
        choices=RATINGS,
        default="openskill",
        help="what orders the leaderboard (default openskill)",
    )
    new.add_argument(
        "--private",
        action="store_true",
        help="the leaderboard, players' pages and exports for the organiser only",
    )
    new.add_argument(
        "--public-url", metavar="URL", help="the server's address, for the printed links"
    )
    new.set_defaults(handler=_new)

    settings = sub.add_parser(
        "set", parents=[common, as_json, by], help="make the club private or public"
    )
    settings.add_argument("club", metavar="ID")
    privacy = settings.add_mutually_exclusive_group(required=True)
    privacy.add_argument(
        "--private",
        dest="private",
        action="store_true",
        help="the leaderboard, players' pages and exports for the organiser only",
    )
    privacy.add_argument(
        "--public",
        dest="private",
        action="store_false",
        help="whoever has the club's id reads them",
    )
    settings.set_defaults(handler=_set, private=None)

    player = sub.add_parser("player", help="the roster: add, rename, merge, unmerge, show")
    players = player.add_subparsers(dest="player_command", required=True, metavar="COMMAND")
    add = players.add_parser("add", parents=[common, as_json, by], help="add a player")
    add.add_argument("club", metavar="ID")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--nickname", metavar="TEXT")
    add.add_argument("--ema-id", metavar="ID")
    add.set_defaults(handler=_add)
    rename = players.add_parser(
        "rename", parents=[common, as_json, by], help="rename a player (their games stay theirs)"
    )
    rename.add_argument("club", metavar="ID")
    rename.add_argument("name", metavar="NAME")
    rename.add_argument("new_name", metavar="NEW")
    rename.set_defaults(handler=_rename)
    merge = players.add_parser(
        "merge", parents=[common, as_json, by], help="merge two entries of one person"
    )
    merge.add_argument("club", metavar="ID")
    merge.add_argument("name", metavar="NAME", help="the entry merged away")
    merge.add_argument("into", metavar="INTO", help="the entry that stays")
    merge.set_defaults(handler=_merge)
    unmerge = players.add_parser(
        "unmerge",
        parents=[common, as_json, by],
        help="undo a merge (while no game has finished since)",
    )
    unmerge.add_argument("club", metavar="ID")
    unmerge.add_argument("name", metavar="NAME")
    unmerge.set_defaults(handler=_unmerge)
    show = players.add_parser(
        "show", parents=[common, as_json, period], help="a player's stats and rating history"
    )
    show.add_argument("club", metavar="ID")
    show.add_argument("name", metavar="NAME")
    show.add_argument("--csv", action="store_true", help="the player's games as CSV")
    show.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    show.set_defaults(handler=_show)

    attach = sub.add_parser(
        "attach", parents=[common, as_json, by], help="attach an existing table or event"
    )
    attach.add_argument("club", metavar="ID")
    what = attach.add_mutually_exclusive_group(required=True)
    what.add_argument("--table", metavar="ID")
    what.add_argument("--event", metavar="ID")
    attach.set_defaults(handler=_attach)

    ratings = sub.add_parser(
        "ratings", parents=[common, as_json, period], help="the leaderboard, best first"
    )
    ratings.add_argument("club", metavar="ID")
    ratings.add_argument(
        "--min-games", type=whole_number, default=0, metavar="N", help="players with N games"
    )
    ratings.add_argument("--csv", action="store_true", help="the leaderboard as CSV")
    ratings.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    ratings.set_defaults(handler=_ratings)

    games = sub.add_parser(
        "games",
        parents=[common, as_json, period],
        help="every player's games, a row per player at each game (--json or --csv)",
    )
    games.add_argument("club", metavar="ID")
    games.add_argument("--csv", action="store_true", help="as CSV")
    games.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    games.set_defaults(handler=_games)


@contextmanager
def _book(args: argparse.Namespace) -> Iterator[ClubBook]:
    # Imported here: SQLAlchemy and Alembic load only for the commands that store things.
    from companion.ledger.club_book.service import ClubBook
    from companion.ledger.repository import Ledger

    with Ledger.open(args.db) as ledger:
        yield ClubBook(ledger)


def _new(args: argparse.Namespace) -> int:
    from companion.cli.table import server_address

    server = server_address(args.public_url or os.environ.get(PUBLIC_URL_ENV) or None)
    with _book(args) as book:
        created = book.create_club(args.name, args.rating, private=args.private, by=args.by)
    read = f"{server}/c/{created.id}"
    readers = "the organiser only" if args.private else "everyone with its id"
    organise = f"{read}/organise#token={quote(created.token, safe='')}"
    if args.json:
        return print_json(
            {"id": created.id, "token": created.token, "organiser_link": organise}
            | {"read_link": read}
        )
    print(created.id)
    print(
        f"Club {created.id}: {' '.join(args.name.split())}, ordered by {args.rating}.\n"
        "Organiser's link (shown once: it holds the organiser's token):\n"
        f"  {organise}\nLeaderboard, for {readers}:\n  {read}",
        file=sys.stderr,
    )
    return 0


def _set(args: argparse.Namespace) -> int:
    with _book(args) as book:
        private = book.set_private(args.club, args.private, by=args.by)
    if args.json:
        return print_json({"private": private})
    print(
        "Private: the leaderboard, players' pages and exports need the organiser's token"
        if private
        else "Public: whoever has the club's id reads its leaderboard and players' pages"
    )
    return 0


def _player(args: argparse.Namespace, player: RosterPlayer, done: str) -> int:
    if args.json:
        return print_json(player.to_json())
    print(f"{done}: {player.name}" + (f" ({player.nickname})" if player.nickname else ""))
    return 0


def _add(args: argparse.Namespace) -> int:
    with _book(args) as book:
        player = book.add_player(
            args.club, args.name, nickname=args.nickname, ema_id=args.ema_id, by=args.by
        )
    return _player(args, player, "Added")


def _rename(args: argparse.Namespace) -> int:
    with _book(args) as book:
        player = book.rename_player(args.club, args.name, args.new_name, by=args.by)
    return _player(args, player, "Renamed")


def _merge(args: argparse.Namespace) -> int:
    with _book(args) as book:
        book.merge_players(args.club, args.name, args.into, by=args.by)
        kept = book.roster(args.club).find(args.into)
    assert kept is not None
    return _player(args, kept, f"Merged {args.name.strip()} into")


def _unmerge(args: argparse.Namespace) -> int:
    with _book(args) as book:
        player = book.unmerge_player(args.club, args.name, by=args.by)
    return _player(args, player, "Unmerged")


def _attach(args: argparse.Namespace) -> int:
    from companion.cli.table import joined_text

    with _book(args) as book:
        if args.table is not None:
            joined = book.attach_table(args.club, args.table, by=args.by)
        else:
            joined = book.attach_event(args.club, args.event, by=args.by)
    if args.json:
        return print_json(joined.to_json())
    print(joined_text(args.club, joined.to_json()))
    return 0


def _ratings(args: argparse.Namespace) -> int:
    from companion.ledger.club_book.export import leaderboard_csv, leaderboard_json, period_of

    with _book(args) as book:
        record, ratings = book.ratings(args.club, period_of(args.as_of, args.since))
    if args.csv:
        return write_output(leaderboard_csv(record, ratings, args.min_games), args.output)
    data = leaderboard_json(record, ratings, args.min_games)
    if args.json:
        return print_json(data)
    lines = [f"{record.name}: {ratings.games} games, by {record.rating.value}"]
    for rank, row in enumerate(data["players"], 1):
        lines.append(
            f"{rank:>3}. {row['name']:<24} {row['games']:>4} games  ordinal {row['ordinal']:7.2f}"
            f"  R {row['tenhou_r']:7.2f}  total {row['total']}"
        )
    return write_output("\n".join(lines) + "\n", args.output)


def _games(args: argparse.Namespace) -> int:
    from companion.ledger.club_book.export import club_games_csv, club_games_json, period_of

    period = period_of(args.as_of, args.since)
    with _book(args) as book:
        record = book.record(args.club)
    if args.csv:
        return write_output(club_games_csv(record, period), args.output)
    data = club_games_json(record, period)
    if args.json:
        return print_json(data)
    lines = [f"{record.name}: {len(data['games'])} players' games"]
    lines.extend(
        f"  {row['finished_at'][:16]} {row['table']} {row['player']:<24} place {row['place']} "
        f"{row['result']}"
        for row in data["games"]
    )
    return write_output("\n".join(lines) + "\n", args.output)


def _show(args: argparse.Namespace) -> int:
    from companion.ledger.club_book.export import period_of, player_games_csv, player_json

    with _book(args) as book:
        period = period_of(args.as_of, args.since)
        record, _ = book.ratings(args.club, period)
        page = book.player_page(args.club, args.name, period)
    if args.csv:
        return write_output(player_games_csv(record, page), args.output)
    data = player_json(record, page)
    if args.json:
        return print_json(data)
    stats = data["stats"]
    lines = [f"{page.player.name}: {stats['games']} games, {stats['hands']} hands"]
    if data["ratings"] is not None:
        rated = data["ratings"]
        lines.append(
            f"ordinal {rated['ordinal']:.2f} (mu {rated['mu']:.2f}, sigma {rated['sigma']:.2f}),"
            f" R {rated['tenhou_r']:.2f}, total {rated['total']}, average place "
            f"{rated['average_place']}"
        )
    for name in ("wins", "deal_ins", "riichi", "self_draws"):
        share = stats[name]
        lines.append(f"{name.replace('_', ' ')}: {share['count']} of {share['over']}")
    for game in data["games"]:
        lines.append(
            f"  {game['finished_at'][:16]} {game['table']} place {game['place']} {game['result']}"
        )
    return write_output("\n".join(lines) + "\n", args.output)
