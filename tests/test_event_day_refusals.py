"""The day's refusals carry a key and parameters (`refusal.day_*`), as the events' do: each case
below meets one through the event service; the English catalogue message filled with its
parameters is the service's message word for word, both Chinese catalogues say it in their own
words, and nothing was written."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.ledger.event_book.service import EventBook
from companion.ledger.repository import Ledger
from companion.web import i18n
from event_day_helpers import age_timers, seated_event, win


@pytest.fixture
def book(tmp_path: Path) -> Iterator[EventBook]:
    with Ledger.open(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as ledger:
        yield EventBook(ledger)


def _timed(book: EventBook) -> str:
    event_id = seated_event(book)
    book.start_timer(event_id, 1, 30)
    return event_id


def _paused(book: EventBook) -> str:
    event_id = _timed(book)
    book.pause_timer(event_id, 1)
    return event_id


def _up(book: EventBook) -> str:
    event_id = _timed(book)
    age_timers(book.ledger, 31)
    return event_id


def _swap(book: EventBook, **fix: Any) -> object:
    return book.fix_seats(seated_event(book), **fix)


def _extended(book: EventBook) -> str:
    event_id = _timed(book)
    book.extend_timer(event_id, 1, 600)  # 630 minutes: 600 more would pass 1,200
    return event_id


Case = Callable[[EventBook], object]

CASES: list[tuple[str, dict[str, Any], Case]] = [
    ("refusal.day_no_timer", {"round": 1}, lambda b: b.extend_timer(seated_event(b), 1, 5)),
    ("refusal.day_timer_paused", {"round": 1}, lambda b: b.pause_timer(_paused(b), 1)),
    ("refusal.day_timer_not_running", {"round": 1}, lambda b: b.extend_timer(_up(b), 1, 5)),
    ("refusal.day_timer_not_paused", {"round": 1}, lambda b: b.resume_timer(_timed(b), 1)),
    (
        "refusal.day_extend_minutes",
        {"minutes": 0, "most": 600},
        lambda b: b.extend_timer(_timed(b), 1, 0),
    ),
    (
        "refusal.day_timer_total",
        {"most": 1200},
        lambda b: b.extend_timer(_extended(b), 1, 600),
    ),
    (
        "refusal.day_time_up_hands",
        {"hands": 5, "most": 4},
        lambda b: b.set_day_rules(seated_event(b), time_up_hands=5),
    ),
    (
        "refusal.day_void_score",
        {"score": "lots"},
        lambda b: b.set_day_rules(seated_event(b), void_score="lots"),
    ),
    (
        "refusal.day_no_table",
        {"round": 1, "number": 3},
        lambda b: _swap(b, number=3, players=["Ann", "Ben"]),
    ),
    (
        "refusal.day_swap_other_table",
        {"player": "Eve", "table": 2, "round": 1, "number": 1},
        lambda b: _swap(b, number=1, players=["Ann", "Eve"]),
    ),
    (
        "refusal.day_swap_not_seated",
        {"player": "Ivy", "round": 1},
        lambda b: _late_entry_swap(b),
    ),
    (
        "refusal.day_swap_two",
        {"count": 3},
        lambda b: _swap(b, number=1, players=["Ann", "Ben", "Cat"]),
    ),
    (
        "refusal.day_swap_same",
        {"player": "Ann"},
        lambda b: _swap(b, number=1, players=["Ann", "ann"]),
    ),
    ("refusal.day_order_players", {"most": 4}, lambda b: _swap(b, number=1, order=["Ann", "Ben"])),
    (
        "refusal.day_order_same",
        {},
        lambda b: _swap(b, number=1, order=["Ann", "Ben", "Cat", "Dan"]),
    ),
    ("refusal.day_swap_what", {}, lambda b: _swap(b, number=1)),
    (
        "refusal.day_end_mode",
        {"mode": "gone"},
        lambda b: b.end_table(seated_event(b), 1, "gone", "x"),
    ),
    ("refusal.day_end_reason_empty", {}, lambda b: b.end_table(seated_event(b), 1, "void", " ")),
    (
        "refusal.day_end_reason_long",
        {"most": 200},
        lambda b: b.end_table(seated_event(b), 1, "void", "x" * 201),
    ),
    ("refusal.day_end_ended", {"round": 1, "number": 1}, lambda b: _ended_twice(b)),
    ("refusal.day_end_finished", {"round": 1, "number": 1}, lambda b: _end_finished(b)),
    (
        "refusal.day_reopen_not_ended",
        {"round": 1, "number": 1},
        lambda b: b.reopen_table(seated_event(b), 1),
    ),
    ("refusal.day_reopen_closed", {"round": 1, "next": 2}, lambda b: _reopen_closed(b)),
    (
        "refusal.day_ema_id",
        {"ema_id": "4010123"},
        lambda b: b.set_entrant(seated_event(b), "Ann", ema_id="4010123"),
    ),
    (
        "refusal.day_country",
        {"country": "France"},
        lambda b: b.set_entrant(seated_event(b), "Ann", country="France"),
    ),
    ("refusal.day_sheet_not_seated", {"round": 2}, lambda b: b.round_sheet(seated_event(b), 2)),
    ("refusal.day_table_ended", {"round": 1, "number": 2}, lambda b: _hand_after_end(b)),
]


def _hand_after_end(book: EventBook) -> None:
    event_id = seated_event(book)
    book.end_table(event_id, 2, "as-it-stands", "out of time")
    win(book.ledger, book.event(event_id).seated[0].tables[1].table, "Eve", "Fay")


def _ended_twice(book: EventBook) -> object:
    event_id = seated_event(book)
    book.end_table(event_id, 1, "void", "fire alarm")
    return book.end_table(event_id, 1, "as-it-stands", "fire alarm")


def _end_finished(book: EventBook) -> object:
    event_id = seated_event(book, hands=1)
    table = book.event(event_id).seated[0].tables[0].table
    win(book.ledger, table, "Ann", "Ben")
    return book.end_table(event_id, 1, "void", "late")


def _reopen_closed(book: EventBook) -> object:
    event_id = seated_event(book)
    book.end_table(event_id, 1, "void", "fire alarm")
    book.seat_round(event_id, 2, confirm=True)
    return book.reopen_table(event_id, 1, round_number=1)


def _late_entry_swap(book: EventBook) -> object:
    event_id = seated_event(book)
    book.add_player(event_id, "Ivy", 2)
    return book.fix_seats(event_id, 1, players=["Ann", "Ivy"])


@pytest.mark.parametrize(("key", "params", "case"), CASES, ids=[key for key, _, _ in CASES])
def test_every_day_refusal_is_its_english_message(
    book: EventBook, key: str, params: dict[str, Any], case: Case
) -> None:
    with pytest.raises(CompanionError) as refused:
        case(book)
    assert (refused.value.key, dict(refused.value.params)) == (key, params)
    english = i18n.catalogue("en")[key]
    said = {name: str(value) for name, value in params.items()}
    assert english.format_map(said) == str(refused.value)
    for lang in (i18n.ZH_HANS, i18n.ZH_HANT):
        translated = i18n.translate(lang, key, **said)
        assert translated != english and "{" not in translated, (lang, translated)


def test_every_day_key_is_met() -> None:
    keys = {key for key in i18n.catalogue("en") if key.startswith("refusal.day_")}
    assert keys == {key for key, _, _ in CASES}
