"""An event's refusals: each says why in its message, and most carry a key for the pages
(docs/events.md, *Refusals in the reader's language*)."""

from __future__ import annotations

from companion.ledger.errors import LedgerError


class EventError(LedgerError):
    """An event request that cannot be carried out; the message says why."""


class UnknownEventRecordError(EventError):
    """No event has that id."""

    http_status = 404


class RoundOrderError(EventError):
    """A round seated twice, or before the round before it."""

    http_status = 409


class TablesPlayingError(RoundOrderError):
    """The next round seated, unconfirmed, while tables of the rounds before still play: its
    `params["playing"]` lists them (`round`, `number`, `table`)."""


class EventAccessError(EventError):
    """A token that is not the event's organiser token."""

    http_status = 403


class UnknownEntrantError(EventError):
    """A name that is not one of the event's players."""
