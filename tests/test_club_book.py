"""A club on the ledger (companion.ledger.club_book): its roster (names cleaned and compared
without case, renames that keep the games, merges undone while no game has finished since),
tables and events attached and made in it, refusals that write nothing, and the stats of
hands counted by hand."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from companion.clubs.ratings import Period
from companion.clubs.stats import Mean, Share
from companion.ledger.club_book.errors import (
    ClubAccessError,
    ClubConflictError,
    ClubError,
    UnknownClubError,
    UnknownClubPlayerError,
)
from companion.ledger.club_book.service import ClubBook
from companion.ledger.errors import LimitError, UnknownTableError
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import DrawRecord, WinnerRecord, WinRecord
from companion.ledger.repository import Ledger

RIICHI = {"preset": "tenhou", "length": "tonpuusen"}


@pytest.fixture
def book(tmp_path: Path) -> Iterator[ClubBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield ClubBook(ledger)


def ron(
    winner: str, discarder: str, han: int, fu: int = 30, riichi: tuple[str, ...] = ()
) -> WinRecord:
    return WinRecord((WinnerRecord(winner, han=han, fu=fu),), discarder, None, riichi)


def tsumo(winner: str, han: int, fu: int = 30) -> WinRecord:
    return WinRecord((WinnerRecord(winner, han=han, fu=fu),), None)


def test_a_club_and_its_roster(book: ClubBook) -> None:
    club = book.create_club("Thursday Riichi")
    ann = book.add_player(club.id, "  Ann\u200b ", nickname="Annie", ema_id="04120001")
    assert (ann.name, ann.nickname, ann.ema_id) == ("Ann", "Annie", "04120001")
    assert book.verify_token(club.id, club.token)
    assert not book.verify_token(club.id, "wrong")
    with pytest.raises(ClubAccessError) as refused:
        book.check_token(club.id, "wrong")
    assert refused.value.key == "refusal.club_token"
    with pytest.raises(ClubConflictError) as clash:
        book.add_player(club.id, "ANN")
    assert (clash.value.key, clash.value.params) == (
        "refusal.club_same_name",
        {"name": "ANN", "holder": "Ann"},
    )
    for name, key in (("", "refusal.club_player_empty"), ("\u200b ", "refusal.club_player_empty")):
        with pytest.raises(ClubError) as empty:
            book.add_player(club.id, name)
        assert empty.value.key == key
    with pytest.raises(LimitError) as long:
        book.add_player(club.id, "x" * 201)
    assert long.value.key == "refusal.club_player_long"
    assert [player.name for player in book.roster(club.id).active()] == ["Ann"]
    with pytest.raises(UnknownClubError) as unknown:
        book.add_player("nosuch", "Ben")
    assert (unknown.value.http_status, unknown.value.key) == (404, "refusal.club_unknown")
    with pytest.raises(UnknownClubPlayerError):
        book.rename_player(club.id, "Ben", "Benny")


def test_a_table_made_in_a_club_joins_its_names_and_matches_the_known(book: ClubBook) -> None:
    club = book.create_club("Night")
    book.add_player(club.id, "ann")
    table, joined = book.create_table(
        club.id, "riichi", ["Ann", "Ben", "Cat", "Dan"], options=RIICHI
    )
    assert (joined.joined, joined.known) == (("Ben", "Cat", "Dan"), ("Ann",))
    assert book.club_of_table(table.id) == club.id
    assert [player.name for player in book.roster(club.id).active()] == ["ann", "Ben", "Cat", "Dan"]
    # Of another family: refused, and nothing of it written.
    with pytest.raises(ClubError) as other:
        book.create_table(club.id, "mcr", ["Eve", "Fay", "Gus", "Hal"])
    assert other.value.key == "refusal.club_family"
    assert len(book.roster(club.id).active()) == 4
    assert (
        len(book.ledger.engine.connect().exec_driver_sql("SELECT id FROM ledger_tables").all()) == 1
    )


def test_an_existing_table_and_an_event_attached(book: ClubBook) -> None:
    club = book.create_club("Night")
    lone = book.ledger.create_table("riichi", ["Ann", "Ben", "Cat", "Dan"], options=RIICHI)
    attached = book.attach_table(club.id, lone.id.upper())
    assert attached.joined == ("Ann", "Ben", "Cat", "Dan")
    again = book.attach_table(club.id, lone.id)
    assert (again.joined, again.known) == ((), ("Ann", "Ben", "Cat", "Dan"))
    with pytest.raises(UnknownTableError):
        book.attach_table(club.id, "nosuchid")
    other = book.create_club("Elsewhere")
    with pytest.raises(ClubConflictError) as taken:
        book.attach_table(other.id, lone.id)
    assert taken.value.key == "refusal.club_other"
    event = EventBook(book.ledger).create_event(
        "Spring", "riichi", RIICHI, ["ann", "Eve", "Fay", "Gus"], 2
    )
    joined = book.attach_event(club.id, event.id)
    assert (joined.joined, joined.known) == (("Eve", "Fay", "Gus"), ("ann",))
    assert book.club_of_event(event.id) == club.id
    mcr = book.ledger.create_table("mcr", ["Ann", "Ben", "Cat", "Dan"])
    with pytest.raises(ClubError) as family:
        book.attach_table(club.id, mcr.id)
    assert family.value.key == "refusal.club_family"


def _play_game(book: ClubBook, club_id: str, players: list[str]) -> str:
    """A tonpuusen at which the first player busts out at once (a yakuman dealt in)."""
    table, _ = book.create_table(club_id, "riichi", players, options=RIICHI)
    book.ledger.record(table.id, WinRecord((WinnerRecord(players[1], yakuman=1),), players[0]))
    return table.id


def test_rename_and_merge_keep_every_game(book: ClubBook) -> None:
    club = book.create_club("Night")
    first = _play_game(book, club.id, ["Ann", "Ben", "Cat", "Dan"])
    second = _play_game(book, club.id, ["Annie", "Eve", "Cat", "Dan"])
    renamed = book.rename_player(club.id, "ben", "Benjamin")
    assert renamed.name == "Benjamin"
    page = book.player_page(club.id, "Benjamin")
    assert [game.table_id for game in page.games] == [first]
    assert book.player_page(club.id, "BEN").player.name == "Benjamin"
    with pytest.raises(ClubError) as self_merge:
        book.merge_players(club.id, "Ann", "ann")
    assert self_merge.value.key == "refusal.club_merge_self"
    with pytest.raises(ClubConflictError) as together:
        book.merge_players(club.id, "Ann", "Cat")
    assert together.value.key == "refusal.club_merge_together"
    merged = book.merge_players(club.id, "Annie", "Ann")
    assert merged.merged_into is not None
    page = book.player_page(club.id, "Ann")
    assert [game.table_id for game in page.games] == [second, first]
    _, ratings = book.ratings(club.id)
    assert ratings.players[page.player.key].games == 2
    assert "Annie" not in [player.name for player in book.roster(club.id).active()]
    # Undone while no game has finished since; then refused once one has.
    book.unmerge_player(club.id, "Annie")
    assert [game.table_id for game in book.player_page(club.id, "Ann").games] == [first]
    assert [game.table_id for game in book.player_page(club.id, "Annie").games] == [second]
    book.merge_players(club.id, "Annie", "Ann")
    _play_game(book, club.id, ["Gus", "Hal", "Ivy", "Jo"])
    with pytest.raises(ClubConflictError) as late:
        book.unmerge_player(club.id, "Annie")
    assert late.value.key == "refusal.club_unmerge_late"
    assert len(book.player_page(club.id, "Ann").games) == 2
    kinds = [
        row[0]
        for row in book.ledger.engine.connect().exec_driver_sql(
            "SELECT kind FROM club_audit ORDER BY seq"
        )
    ]
    assert kinds == ["create", "attach", "attach", "rename", "merge", "unmerge", "merge", "attach"]


def test_stats_against_hands_counted_by_hand(book: ClubBook) -> None:
    club = book.create_club("Night")
    players = ["Ann", "Ben", "Cat", "Dan"]
    table, _ = book.create_table(club.id, "riichi", players, options=RIICHI)
    hands = [
        ron("Ann", "Ben", 3, 30, riichi=("Ann",)),  # East 1: Ann (dealer) 5800 + riichi stick back
        tsumo("Ann", 1, 30),  # East 1, 1 honba: dealer tsumo 500 all + 300
        DrawRecord(("Cat",), ("Cat",)),  # East 1, 2 honba: Cat alone tenpai, riichi
        ron("Cat", "Ann", 2, 30),  # East 1, 3 honba + Cat's stick: Ann deals in, passes
        ron("Dan", "Ann", 13),  # East 2: Ann deals in a yakuman: bust
    ]
    for hand in hands:
        book.ledger.record(table.id, hand)
    page = book.player_page(club.id, "Ann")
    stats = page.stats
    assert stats.games == 1 and stats.hands == 5
    assert stats.wins == Share(2, 5)
    assert stats.deal_ins == Share(2, 5)
    assert stats.riichi == Share(1, 5)
    assert stats.self_draws == Share(1, 2)
    # Ann's first win: 5800 from Ben, her own stick paid (-1000) and taken back (+1000).
    # Her tsumo with one honba: 500 + 100 from each of three.
    assert stats.average_win == Mean(Fraction(5800 + 1800), 2)
    assert stats.average_count == Mean(Fraction(4), 2)
    assert stats.largest_win == 5800
    assert page.stats.places[3] == Share(1, 1)
    cat = book.player_page(club.id, "Cat").stats
    assert (cat.wins, cat.riichi, cat.deal_ins) == (Share(1, 5), Share(1, 5), Share(0, 5))
    dan = book.player_page(club.id, "Dan").stats
    assert (dan.wins, dan.average_count, dan.places[0]) == (Share(1, 5), Mean(13, 1), Share(1, 1))
    # A season before the game has none of it.
    early = book.player_page(club.id, "Ann", Period.season(_day(2000, 1, 1), _day(2000, 12, 31)))
    assert (early.ratings, early.stats.games, early.games) == (None, 0, ())


def _day(year: int, month: int, day: int):  # type: ignore[no-untyped-def]
    from datetime import date

    return date(year, month, day)
