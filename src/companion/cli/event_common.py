"""What the `companion event` commands share (cli/event.py, cli/event_day.py): the event
service on the command's database, an organiser's action printed, and counts in words."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from companion.cli.common import print_json

if TYPE_CHECKING:
    from companion.ledger.event_book.service import EventBook


class Shown(Protocol):
    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=Shown)


@contextmanager
def event_book(args: argparse.Namespace) -> Iterator[EventBook]:
    # Imported here: SQLAlchemy and Alembic load only for the commands that store things.
    from companion.ledger.event_book.service import EventBook
    from companion.ledger.repository import Ledger

    with Ledger.open(args.db) as ledger:
        yield EventBook(ledger)


def answer(
    args: argparse.Namespace, act: Callable[[EventBook], S], text: Callable[[S], str]
) -> int:
    """Carry out an organiser's action and print what it recorded: as JSON, or as `text`."""
    with event_book(args) as book:
        done = act(book)
    if args.json:
        return print_json(done.to_json())
    print(text(done))
    return 0


def count_text(number: int, one: str) -> str:
    """ "1 round", "3 rounds"."""
    return f"{number} {one if number == 1 else one + 's'}"
