"""The clubs' refusals carry a key and parameters (`refusal.club_*`), as the events' do: the
pages say them in the reader's language. Each case below meets one refusal through the club's
service (two through the API, where they are raised); the English catalogue message filled
with its parameters is the refusal's message word for word, and both Chinese catalogues say it
in their own words."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.errors import CompanionError
from companion.ledger.club_book.export import period_of
from companion.ledger.club_book.service import ClubBook, rating_order
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from companion.web import i18n

RIICHI = {"preset": "tenhou", "length": "tonpuusen"}


@pytest.fixture
def book(tmp_path: Path) -> Iterator[ClubBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield ClubBook(ledger)


def _club(book: ClubBook) -> str:
    """A club of Ann, Ben, Cat and Dan, who played one riichi game (Ann busts out)."""
    club_id = book.create_club("Night").id
    table, _ = book.create_table(club_id, "riichi", ["Ann", "Ben", "Cat", "Dan"], options=RIICHI)
    book.ledger.record(table.id, WinRecord((WinnerRecord("Ben", yakuman=1),), "Ann"))
    book.add_player(club_id, "Annie")
    return club_id


def _late_unmerge(book: ClubBook) -> object:
    club_id = _club(book)
    book.merge_players(club_id, "Annie", "Ann")
    table, _ = book.create_table(club_id, "riichi", ["Eve", "Fay", "Gus", "Hal"], options=RIICHI)
    book.ledger.record(table.id, WinRecord((WinnerRecord("Fay", yakuman=1),), "Eve"))
    return book.unmerge_player(club_id, "Annie")


def _merged_twice(book: ClubBook) -> object:
    club_id = _club(book)
    book.merge_players(club_id, "Annie", "Ann")
    return book.merge_players(club_id, "Annie", "Ben")


def _other_club(book: ClubBook) -> object:
    club_id = _club(book)
    table = book.record(club_id).tables[0]
    return book.attach_table(book.create_club("Elsewhere").id, table)


def _api(path: str, body: dict[str, Any] | None) -> Callable[[ClubBook], object]:
    """A refusal the API raises: its JSON answer's message, key and parameters."""

    def case(book: ClubBook) -> object:
        from companion.api import create_app

        club = book.create_club("Night")
        app = create_app(str(book.ledger.engine.url))
        token = {"Authorization": f"Bearer {club.token}"}
        with TestClient(app) as client:
            url = f"/api/clubs/{club.id}{path}"
            answer = client.get(url) if body is None else client.post(url, json=body, headers=token)
        data = answer.json()
        raise CompanionError(
            data["error"], key=data["error_key"], params=data.get("error_params", {})
        )

    return case


Case = Callable[[ClubBook], object]

CASES: list[tuple[str, dict[str, Any], Case]] = [
    ("refusal.club_token", {}, lambda book: book.check_token(_club(book), "not-it")),
    (
        "refusal.club_private",
        {},
        lambda book: book.check_reader(book.create_club("Closed", private=True).id, None),
    ),
    ("refusal.club_player_empty", {}, lambda book: book.add_player(_club(book), " \u200b")),
    (
        "refusal.club_player_long",
        {"most": 40, "start": "x" * 20},
        lambda book: book.add_player(_club(book), "x" * 41),
    ),
    (
        "refusal.club_player_comma",
        {"name": "Ann, Ben"},
        lambda book: book.add_player(_club(book), "Ann, Ben"),
    ),
    (
        "refusal.club_text_long",
        {"what": "a nickname", "most": 40},
        lambda book: book.add_player(_club(book), "Eve", nickname="y" * 41),
    ),
    (
        "refusal.club_same_name",
        {"name": "ANN", "holder": "Ann"},
        lambda book: book.add_player(_club(book), "ANN"),
    ),
    (
        "refusal.club_player_unknown",
        {"name": "Zed"},
        lambda book: book.rename_player(_club(book), "Zed", "Zoe"),
    ),
    ("refusal.club_merged_already", {"name": "Annie"}, _merged_twice),
    (
        "refusal.club_merge_self",
        {"name": "Ann"},
        lambda book: book.merge_players(_club(book), "Ann", "ann"),
    ),
    (
        "refusal.club_merge_together",
        {"name": "Ann", "into": "Ben"},
        lambda book: book.merge_players(_club(book), "Ann", "Ben"),
    ),
    (
        "refusal.club_not_merged",
        {"name": "Annie"},
        lambda book: book.unmerge_player(_club(book), "Annie"),
    ),
    ("refusal.club_unmerge_late", {"name": "Annie"}, _late_unmerge),
    (
        "refusal.club_table_unknown",
        {"table": "nosuch"},
        lambda book: book.attach_table(_club(book), "nosuch"),
    ),
    ("refusal.club_other", {"what": "table"}, _other_club),
    (
        "refusal.club_family",
        {"family": "riichi", "profile": "mcr", "other": "mcr"},
        lambda book: book.create_table(_club(book), "mcr", ["Eve", "Fay", "Gus", "Hal"]),
    ),
    (
        "refusal.club_rating",
        {"ratings": "openskill, tenhou, total", "rating": "elo"},
        lambda book: rating_order("elo"),
    ),
    ("refusal.club_name_empty", {}, lambda book: book.create_club("  ")),
    ("refusal.club_name_long", {"most": 60}, lambda book: book.create_club("n" * 61)),
    ("refusal.club_unknown", {"club": "nope"}, lambda book: book.roster("nope")),
    (
        "refusal.club_date",
        {"what": "as of", "text": "2025-02-30"},
        lambda book: period_of("2025-02-30"),
    ),
    ("refusal.club_season", {}, lambda book: period_of("2025-01-01", "2025-02-01")),
    ("refusal.club_format", {}, _api("/ratings?format=xml", None)),
    ("refusal.club_attach", {}, _api("/attach", {})),
]


@pytest.mark.parametrize(("key", "params", "case"), CASES, ids=[key for key, _, _ in CASES])
def test_every_club_refusal_is_its_english_message(
    book: ClubBook, key: str, params: dict[str, Any], case: Case
) -> None:
    with pytest.raises(CompanionError) as refused:
        case(book)
    found = dict(refused.value.params)
    # The merged pair's table and the other club's table: drawn ids, checked to be tables.
    for name in ("table", "id"):
        if name in found and name not in params:
            assert book.club_of_table(found.pop(name)) is not None
    assert (refused.value.key, found) == (key, params)
    said = {name: str(value) for name, value in refused.value.params.items()}
    english = i18n.catalogue("en")[key]
    assert english.format_map(said) == refused.value.message
    for lang in (i18n.ZH_HANS, i18n.ZH_HANT):
        chinese = i18n.translate(lang, key, **said)
        assert chinese != english and "{" not in chinese, (lang, chinese)


def test_every_club_key_is_met() -> None:
    keys = {key for key in i18n.catalogue("en") if key.startswith("refusal.club_")}
    assert keys == {key for key, _, _ in CASES}
