"""Players' names read one way everywhere (`companion.names`): look-alike names are one name.
`Ann` with a zero-width space, fullwidth `\uff21nn`, `Ann` behind a right-to-left override and
"Substitute" + a no-break space + "1" each collide with the name they look like: an event's
players, a late entry, a substitute's reserved name, a table's four players and the names in a
hand's record are compared after the same normalisation (NFKC, invisible and bidi control
characters left out, spaces trimmed and collapsed, case folded), and a name empty after it is
refused. Issue 41, item 5."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.errors import CompanionError
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from companion.names import clean_name, name_key
from test_ledger_cli import run

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
LOOK_ALIKES = [
    "Ann\u200b",  # a zero-width space after it
    "\uff21nn",  # a fullwidth A
    "\u202eAnn",  # a right-to-left override before it
    "A\u00adnn",  # a soft hyphen inside it
    " ANN\u00a0",  # another case, a no-break space after it
]
SAME = (
    "each player needs a different name: Ann and {second} are the same (names are compared "
    "without case, width, extra spaces or invisible characters)"
)


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    with Ledger.open(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as opened:
        yield opened


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_has_the_names_key(name: str) -> None:
    assert name_key(name) == name_key("Ann") == "ann"
    assert clean_name(name).casefold() == "ann"


def test_the_normalisation() -> None:
    assert clean_name("Substitute\u00a01") == "Substitute 1"
    assert clean_name("  Mei   Lin \t") == "Mei Lin"
    assert clean_name("\u200b\u202e\u2066\ufeff") == ""
    assert clean_name("李\u3000明") == "李 明"  # an ideographic space is a space
    assert clean_name("Zoë") == clean_name("Zoe\u0308") == "Zoë"  # composed either way
    assert name_key("Straße") == name_key("STRASSE")


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_an_event_refuses_a_look_alike(book: EventBook, name: str) -> None:
    with pytest.raises(CompanionError) as refused:
        book.create_event("Night", "sg", None, [*EIGHT[:7], name], 2)
    error = refused.value
    assert error.key == "refusal.event_same_name"
    assert error.params == {"first": "Ann", "second": clean_name(name)}
    assert error.message == SAME.format(second=clean_name(name))


def test_an_events_names_are_stored_clean_and_found_by_any_look_alike(book: EventBook) -> None:
    event_id = book.create_event("Night", "sg", None, ["\uff21nn\u200b", *EIGHT[1:]], 2).id
    assert book.event(event_id).players[0].name == "Ann"
    assert book.withdraw(event_id, "\u202eANN", 0).name == "Ann"


def test_a_late_entry_that_looks_like_a_player_is_refused(book: EventBook) -> None:
    event_id = book.create_event("Night", "sg", None, EIGHT, 3).id
    with pytest.raises(CompanionError) as refused:
        book.add_player(event_id, "\uff21nn", 2)
    assert refused.value.key == "refusal.event_same_name"


@pytest.mark.parametrize("name", ["Substitute\u00a01", "\uff33ubstitute 2", "substitute\u200b 3"])
def test_a_substitutes_name_stays_reserved(book: EventBook, name: str) -> None:
    with pytest.raises(CompanionError) as refused:
        book.create_event("Night", "sg", None, [*EIGHT[:7], name], 2)
    assert refused.value.key == "refusal.event_player_substitute"
    assert refused.value.params == {"player": clean_name(name)}


@pytest.mark.parametrize("name", ["\u200b", "\u202e\u202c", " \u00a0\u3000 "])
def test_a_name_empty_once_normalised_is_refused(book: EventBook, name: str) -> None:
    with pytest.raises(CompanionError) as refused:
        book.create_event("Night", "sg", None, [*EIGHT[:7], name], 2)
    assert (refused.value.key, refused.value.message) == (
        "refusal.event_player_empty",
        "a player's name cannot be empty",
    )
    event_id = book.create_event("Night", "sg", None, EIGHT, 3).id
    with pytest.raises(CompanionError) as late:
        book.add_player(event_id, name, 2)
    assert late.value.key == "refusal.event_player_empty"


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_table_refuses_a_look_alike(ledger: Ledger, name: str) -> None:
    with pytest.raises(CompanionError) as refused:
        ledger.create_table("sg", ["Ann", "Ben", "Cat", name])
    error = refused.value
    assert error.key == "refusal.table_same_name"
    assert error.params == {"first": "Ann", "second": clean_name(name)}
    assert error.message == SAME.format(second=clean_name(name))


def test_a_table_refuses_a_name_empty_once_normalised(ledger: Ledger) -> None:
    with pytest.raises(CompanionError) as refused:
        ledger.create_table("sg", ["Ann", "Ben", "Cat", "\u200b\u2067"])
    assert (refused.value.key, refused.value.message) == (
        "refusal.table_player_empty",
        "a player's name cannot be empty",
    )


def test_a_tables_names_are_stored_clean_and_a_record_finds_them(ledger: Ledger) -> None:
    created = ledger.create_table("sg", ["\uff21nn", "Ben\u200b", "Cat", "Dan"], hands=4)
    assert created.setup.players == ("Ann", "Ben", "Cat", "Dan")
    record = WinRecord((WinnerRecord("\u202eANN", tai=2),), discarder="ｂｅｎ")  # noqa: RUF001
    ledger.record(created.id, record)
    assert len(ledger.replay(created.id).entries) == 1
    assert record.to_json()["winners"][0]["name"] == "ann"


def test_the_api_refuses_look_alikes_with_422(client: TestClient) -> None:
    table = client.post(
        "/api/tables", json={"profile": "sg", "players": ["Ann", "Ben", "Cat", "Ann\u200b"]}
    )
    assert (table.status_code, table.json()) == (
        422,
        {
            "error": SAME.format(second="Ann"),
            "error_key": "refusal.table_same_name",
            "error_params": {"first": "Ann", "second": "Ann"},
        },
    )
    event = client.post(
        "/api/events", json={"name": "N", "players": [*EIGHT[:7], "\uff21nn"], "rounds": 2}
    )
    assert (event.status_code, event.json()["error_key"]) == (422, "refusal.event_same_name")


def _refusal(page: str) -> str:
    found = re.search(r'id="create-error">\s*<p><strong>[^<]*</strong></p>\s*<p>([^<]*)</p>', page)
    assert found, page
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", SAME.format(second="Ann")),
        (
            "zh-Hans",
            "每位玩家的名字须各不相同：Ann 和 Ann 被视为同一个名字"  # noqa: RUF001
            "（比较名字时不计大小写、全角半角、多余空格和不可见字符）。",  # noqa: RUF001
        ),
        (
            "zh-Hant",
            "每位玩家的名字須各不相同：Ann 和 Ann 被視為同一個名字"  # noqa: RUF001
            "（比較名字時不計大小寫、全形半形、多餘空格和不可見字元）。",  # noqa: RUF001
        ),
    ],
)
def test_the_tables_form_says_the_refusal_in_the_pages_language(
    client: TestClient, lang: str, message: str
) -> None:
    client.get("/tables")
    sent = {
        "csrf_token": str(client.cookies.get("companion_csrf")),
        "profile": "sg",
        "player0": "Ann",
        "player1": "Ben",
        "player2": "Cat",
        "player3": "\u202eAnn",
    }
    response = client.post(f"/tables?lang={lang}", data=sent, follow_redirects=False)
    assert response.status_code == 422
    assert _refusal(response.text) == message


def test_the_command_line_refuses_a_look_alike_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    code, out, err = run(capsys, "table", "new", "--players", "Ann,Ben,Cat,\uff21nn", "--db", url)
    assert (code, out) == (2, "")
    assert SAME.format(second="Ann") in err
    assert "Traceback" not in err
