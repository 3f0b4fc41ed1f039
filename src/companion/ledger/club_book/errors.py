"""A club's refusals: each says why in its message and carries a key for the pages."""

from __future__ import annotations

from companion.ledger.errors import LedgerError


class ClubError(LedgerError):
    """A club request that cannot be carried out; the message says why."""


class UnknownClubError(ClubError):
    """No club has that id."""

    http_status = 404


class UnknownClubPlayerError(ClubError):
    """No player of the club has that name."""

    http_status = 404


class ClubAccessError(ClubError):
    """A token that is not the club's organiser token."""

    http_status = 403


class ClubConflictError(ClubError):
    """A request the roster as it stands refuses: a name already taken, a merge that can no
    longer be undone, a table already in another club."""

    http_status = 409
