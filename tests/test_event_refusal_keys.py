"""The events' refusals carry a key and parameters (`refusal.event_*`), as the engine's do: the
organiser's page says them in the reader's language. Each case below meets one refusal through
the event service; the English catalogue message filled with its parameters is the service's
message word for word, and both Chinese catalogues say it in their own words."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.ledger.event_book.service import EventBook
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.repository import Ledger
from companion.web import i18n
from companion.web.event_views import playing_text
from refusal_sites import sites, without_key

EIGHT = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def _event(book: EventBook, seated: int = 0) -> str:
    """An sg event of the eight over three rounds, its first `seated` rounds seated."""
    event_id = book.create_event("Night", "sg", None, EIGHT, 3, seed=1, hands=1).id
    for number in range(1, seated + 1):
        book.seat_round(event_id, number, confirm=True)
    return event_id


def _key_reused(book: EventBook) -> object:
    """A penalty sent with a key (action 3), then another penalty with the same key."""
    event_id = _event(book, 1)
    book.adjust(event_id, "Ann", -5, "late", key="k")
    return book.adjust(event_id, "Ann", -6, "late", key="k")


Case = Callable[[EventBook], object]

CASES: list[tuple[str, dict[str, Any], Case]] = [
    ("refusal.event_unknown", {"event": "nope"}, lambda book: book.event("nope")),
    ("refusal.event_token", {}, lambda book: book.write_tokens(_event(book), "not-it")),
    (
        "refusal.event_unknown_player",
        {"player": "Zed"},
        lambda book: book.withdraw(_event(book), "Zed", 1),
    ),
    (
        "refusal.event_bad_amount",
        {"amount": "ten"},
        lambda book: book.adjust(_event(book), "Ann", "ten", "late"),
    ),
    (
        "refusal.event_zero_amount",
        {},
        lambda book: book.adjust(_event(book), "Ann", 0, "late"),
    ),
    (
        "refusal.event_not_played",
        {"player": "Ann"},
        lambda book: book.adjust(_event(book), "Ann", -5, "late"),
    ),
    (
        "refusal.event_timer_minutes",
        {"minutes": 0, "most": 600},
        lambda book: book.start_timer(_event(book, 1), 1, 0),
    ),
    (
        "refusal.event_round_not_seated",
        {"round": 2},
        lambda book: book.start_timer(_event(book, 1), 2, 30),
    ),
    ("refusal.event_round_seated", {"round": 1}, lambda book: book.seat_round(_event(book, 1), 1)),
    ("refusal.event_key_reused", {"used": "k", "seq": 3}, lambda book: _key_reused(book)),
    (
        "refusal.event_total_large",
        {"player": "Ann", "most": "9,007,199,254,740,992"},
        lambda book: book.adjust(_event(book, 1), "Ann", 2**53 + 1, "a correction"),
    ),
    (
        "refusal.event_tables_playing",
        {"round": 2, "playing": [{"round": 1, "number": 1}, {"round": 1, "number": 2}]},
        lambda book: book.seat_round(_event(book, 1), 2),
    ),
    (
        "refusal.event_round_order",
        {"round": 3, "next": 2},
        lambda book: book.seat_round(_event(book, 1), 3),
    ),
    (
        "refusal.event_unseat_not_seated",
        {"round": 2},
        lambda book: book.unseat_round(_event(book, 1), 2),
    ),
    (
        "refusal.event_unseat_not_last",
        {"round": 1, "last": 2},
        lambda book: book.unseat_round(_event(book, 2), 1),
    ),
    (
        "refusal.event_unseat_played",
        {"round": 1, "number": 1},
        lambda book: _unseat_played(book),
    ),
    (
        "refusal.event_join_seated",
        {"round": 1, "next": 2},
        lambda book: book.add_player(_event(book, 1), "Ivy", 1),
    ),
    (
        "refusal.event_withdraw_seated",
        {"player": "Ann", "first_round": 1, "round": 2},
        lambda book: book.withdraw(_event(book, 2), "Ann", 0),
    ),
    (
        "refusal.event_already_withdrawn",
        {"player": "Ann", "round": 1},
        lambda book: _withdrawn_twice(book),
    ),
    (
        "refusal.event_withdraw_round",
        {"round": 3, "last": 2},
        lambda book: book.withdraw(_event(book), "Ann", 3),
    ),
    (
        "refusal.event_uneven",
        {"players": 9, "tables": 2, "over": 1, "substitutes": 3, "round": None},
        lambda book: book.create_event("Odd", "sg", None, [*EIGHT, "Ivy"], 2),
    ),
    (
        "refusal.event_uneven_round",
        {"players": 7, "tables": 1, "over": 3, "substitutes": 1, "round": 2},
        lambda book: _uneven_second_round(book),
    ),
    (
        "refusal.event_uneven_three",
        {"players": 10, "tables": 3, "over": 1, "substitutes": 2, "round": None},
        lambda book: book.create_event("Odd", "sanma", None, [*EIGHT, "Ivy", "Jo"], 2),
    ),
    (
        "refusal.event_uneven_round_three",
        {"players": 8, "tables": 2, "over": 2, "substitutes": 1, "round": 2},
        lambda book: _uneven_second_round_of_three(book),
    ),
    (
        "refusal.event_name_empty",
        {},
        lambda book: book.create_event("  ", "sg", None, EIGHT, 2),
    ),
    (
        "refusal.event_too_few",
        {"count": 1, "size": 4},
        lambda book: book.create_event("Night", "sg", None, ["Ann"], 2),
    ),
    (
        "refusal.event_same_name",
        {"first": "Ann", "second": "ann"},
        lambda book: book.create_event("Night", "sg", None, ["Ann", "Ben", "Cat", "ann"], 2),
    ),
    (
        "refusal.event_few_rounds",
        {"rounds": 0},
        lambda book: book.create_event("Night", "sg", None, EIGHT, 0),
    ),
    (
        "refusal.event_many_rounds",
        {"most": 40},
        lambda book: book.create_event("Night", "sg", None, EIGHT, 41),
    ),
    (
        "refusal.event_no_round",
        {"round": 4, "last": 3},
        lambda book: book.seat_round(_event(book, 3), 4),
    ),
    (
        "refusal.event_name_long",
        {"most": 60},
        lambda book: book.create_event("N" * 61, "sg", None, EIGHT, 2),
    ),
    (
        "refusal.event_many_players",
        {"most": 400},
        lambda book: book.create_event(
            "Night", "sg", None, [f"P{number}" for number in range(401)], 2
        ),
    ),
    (
        "refusal.event_player_empty",
        {},
        lambda book: book.add_player(_event(book), "  ", 2),
    ),
    (
        "refusal.event_player_long",
        {"most": 40, "start": "X" * 20},
        lambda book: book.create_event("Night", "sg", None, [*EIGHT[:7], "X" * 41], 2),
    ),
    (
        "refusal.event_player_comma",
        {"player": "Ann, Ben"},
        lambda book: book.create_event("Night", "sg", None, [*EIGHT[:7], "Ann, Ben"], 2),
    ),
    (
        "refusal.event_player_substitute",
        {"player": "Substitute 2"},
        lambda book: book.create_event(
            "Night", "sg", None, [*EIGHT[:7], "Substitute 2"], 2, leftover="substitutes"
        ),
    ),
    (
        "refusal.event_join_round",
        {"player": "Ivy", "round": 4, "last": 3},
        lambda book: book.add_player(_event(book), "Ivy", 4),
    ),
    (
        "refusal.event_withdraw_before_join",
        {"player": "Ivy", "round": 1, "joins": 3},
        lambda book: _withdrawn_before_joining(book),
    ),
    (
        "refusal.event_too_few_round",
        {"round": 2, "count": 3, "size": 4},
        lambda book: _five_withdraw(book),
    ),
    (
        "refusal.event_seed",
        {"most": str(2**63 - 1)},
        lambda book: book.create_event("Night", "sg", None, EIGHT, 2, seed=2**63),
    ),
    (
        "refusal.event_by_long",
        {"most": 200},
        lambda book: book.withdraw(_event(book), "Ann", 1, by="B" * 201),
    ),
    (
        "refusal.event_reason_empty",
        {"player": "Ann"},
        lambda book: book.adjust(_event(book), "ann", -5, "  "),
    ),
    (
        "refusal.event_reason_long",
        {"player": "Ann", "most": 200},
        lambda book: book.adjust(_event(book), "Ann", -5, "R" * 201),
    ),
    (
        "refusal.event_amount_long",
        # 1/10^58 as a fraction: 61 characters (as text, more places than the reader takes)
        {"most": 60},
        lambda book: book.adjust(_event(book), "Ann", Fraction(1, 10**58), "late"),
    ),
]


def _withdrawn_twice(book: EventBook) -> object:
    event_id = _event(book)
    book.withdraw(event_id, "ann", 1)
    return book.withdraw(event_id, "Ann", 2)


def _withdrawn_before_joining(book: EventBook) -> object:
    event_id = _event(book)
    book.add_player(event_id, "Ivy", 3)
    return book.withdraw(event_id, "Ivy", 1)  # after round 2 would be a no-show: allowed


def _five_withdraw(book: EventBook) -> object:
    event_id = _event(book, 1)
    for name in EIGHT[:4]:  # the field of rounds 2 and 3 uneven, then too few
        book.withdraw(event_id, name, 1)
    return book.withdraw(event_id, EIGHT[4], 1)


def _unseat_played(book: EventBook) -> object:
    event_id = _event(book, 1)
    table = book.event(event_id).seated[0].tables[0].table
    book.ledger.record(table, WinRecord((WinnerRecord("Ann", tai=1),), "Ben"))
    return book.unseat_round(event_id, 1)


def _uneven_second_round(book: EventBook) -> object:
    event_id = _event(book, 1)
    book.withdraw(event_id, "Ann", 1)  # seven left for round 2, and no substitutes or byes
    return book.seat_round(event_id, 2)


def _uneven_second_round_of_three(book: EventBook) -> object:
    event_id = book.create_event("Sanma", "sanma", None, [*EIGHT, "Ivy"], 2).id
    book.seat_round(event_id, 1)
    book.withdraw(event_id, "Ann", 1)  # eight left for round 2 at tables of three
    return book.seat_round(event_id, 2)


@pytest.mark.parametrize(("key", "params", "case"), CASES, ids=[key for key, _, _ in CASES])
def test_every_event_refusal_is_its_english_message(
    book: EventBook, key: str, params: dict[str, Any], case: Case
) -> None:
    with pytest.raises(CompanionError) as refused:
        case(book)
    found = dict(refused.value.params)
    # The tables' ids are drawn: each is checked to be one of the event's, then left out.
    for table in [found, *found.get("playing", ())]:
        if "table" in table:
            assert book.event_of_table(table.pop("table")) is not None
    assert (refused.value.key, found) == (key, params)
    english = i18n.catalogue("en")[key]
    assert english.format_map(said_params(i18n.EN, params)) == str(refused.value)
    for lang in (i18n.ZH_HANS, i18n.ZH_HANT):
        said = i18n.translate(lang, key, **said_params(lang, params))
        assert said != english and "{" not in said, (lang, said)


def said_params(lang: str, params: dict[str, Any]) -> dict[str, str]:
    """The parameters as the page's script says them: the tables still playing as a list
    (result-view.js `paramText`), the others as they are."""
    t = i18n.Translator(lang)
    return {
        name: playing_text(t, value) if name == "playing" else str(value)
        for name, value in params.items()
    }


def test_every_event_key_is_met() -> None:
    # docs/events.md's table of the keys is written from the catalogue (`make docs`).
    keys = {key for key in i18n.catalogue("en") if key.startswith("refusal.event_")}
    assert keys == {key for key, _, _ in CASES}


# --- The raise sites that carry no key ----------------------------------------------------------
# A new refusal a user can meet through the service, the API or the events form gets a key;
# this list says which do not, and why. It lists each site by its file, its error and the
# opening of its message, as tests/test_refusal_keys.py does for the engine.

ROOT = Path(__file__).resolve().parent.parent
EVENT_FILES = tuple(
    sorted(
        str(path.relative_to(ROOT / "src" / "companion"))
        for package in ("events", "ledger/event_book")
        for path in (ROOT / "src" / "companion" / package).glob("*.py")
    )
)
"""Every module of the pure events and of the event service: a new one is read too."""
EVENT_REFUSALS = {
    "EventAccessError",
    "EventError",
    "InvalidRequestError",
    "LedgerError",
    "LimitError",
    "RoundOrderError",
    "SeatingError",
    "StandingsError",
    "UnknownEntrantError",
    "UnknownEventRecordError",
}


WITHOUT_KEY = [
    # The service gives the seating its own rounds, in order, and the standing itself
    # (`standing_order`: every player of the round once, and nobody else) only to a round
    # seated by standing; nothing in it asks a round for a player's seat (`Round.table_of`).
    *sites("events/plan.py", "SeatingError", " has no seat in round "),
    # The service makes a plan's table size from the profile's seats: three or four.
    *sites("events/plan.py", "SeatingError", "a table seats three or four players, not "),
    *sites("events/history.py", "SeatingError", "round "),
    *sites(
        "events/seating.py",
        "SeatingError",
        "round ",
        "round 1 is seated before any standing: it takes none",
        "the standing names ",
        "the standing names ",
        "the standing leaves out ",
    ),
    # The API, the events form, the command line and a late entry trim every name: only a
    # Python caller's `Entry` keeps its spaces.
    *sites("events/plan.py", "SeatingError", "a player's name cannot start or end with a space: "),
    # The tables' own standings (numbers the ledger wrote), each seated table once, one profile
    # for every table of an event, and a reason the service has refused empty first
    # (refusal.event_reason_empty).
    *sites(
        "events/standings.py",
        "StandingsError",
        " is not a number: ",
        " is not a number: ",
        "table ",
        "an event's tables are counted one way; these mix ",
        "a penalty or correction of ",
    ),
    # The service adjusts and names as withdrawn only players who played (refusal.event_not_played
    # first), and refuses a player named like a substitute in every event
    # (refusal.event_player_substitute), whom the leaderboard would leave out.
    *sites(
        "events/standings.py",
        "StandingsError",
        " played no table of the event",
        " withdrew but played no table of the event",
    ),
    # first_round, later_rounds and leftover: the API's body, the command line's choices and the
    # form's lists send only known values (a hand-made form post is refused in English).
    *sites("ledger/event_book/checks.py", "InvalidRequestError", " must be one of "),
    # Not the request's fault: other writers kept the event busy through every retry, or every
    # new id drawn was taken. Trying again helps; left in English.
    *sites("ledger/event_book/store.py", "EventError", "the event is busy: try again"),
    *sites(
        "ledger/event_book/service.py", "EventError", "could not find a free event id; try again"
    ),
]


def test_the_events_refusals_without_a_key_are_the_listed_ones() -> None:
    found = without_key(EVENT_FILES, EVENT_REFUSALS)
    assert sorted(found) == sorted(WITHOUT_KEY)
