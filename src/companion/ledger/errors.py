"""What the ledger refuses, as typed errors a player can read (HTTP status by kind)."""

from __future__ import annotations

from companion.errors import CompanionError

# ---------------------------------------------------------------------------------------------
# Errors


class LedgerError(CompanionError):
    """A ledger request that cannot be carried out; the message says why."""


class UnknownTableError(LedgerError):
    """No table has that id."""


class UnknownPlayerError(LedgerError):
    """A name that is not one of the table's players."""


class UnknownEntryError(LedgerError):
    """An entry number that the table's record does not have, or cannot be corrected."""


class MissingEntryError(UnknownEntryError):
    """An entry number that the table's record does not have at all."""


class NotPayableWinError(LedgerError):
    """A win the engine refuses, or one under the table's minimum: it is not recorded."""


class TableFinishedError(LedgerError):
    """The table's planned hands are all played."""


class TableEndedError(TableFinishedError):
    """An event's organiser ended the table early: no hand is recorded at it until reopened."""


class StaleWriteError(LedgerError):
    """The writer expected another hand than the one being played: someone recorded it."""


class IdempotencyConflictError(LedgerError):
    """An idempotency key already used for a different entry."""


class LimitError(LedgerError):
    """A request over one of the limits on what a client may store; the message names it."""


class TableBusyError(LedgerError):
    """Other writers kept the table busy through every retry: the same write may be sent again."""
