"""Who may organise an event: the organiser's token (shown once, kept only as a hash) and the
tables' write tokens, given out only to whoever shows it."""

from __future__ import annotations

import hmac

from companion.ledger.event_book.errors import EventAccessError
from companion.ledger.event_book.store import EventStore
from companion.ledger.repository import hash_token


class EventAccess(EventStore):
    """The part of `EventBook` that checks the organiser's token and gives out the tables'."""

    def verify_token(self, event_id: str, token: str) -> bool:
        """Whether `token` is the event's organiser token (constant-time comparison)."""
        with self._guard(), self._session() as session, session.begin():
            row = self._record(session, event_id)
            return hmac.compare_digest(row.token_hash, hash_token(token))

    def write_tokens(self, event_id: str, token: str) -> dict[str, str]:
        """Each seated table's write token by table id, for the organiser only."""
        if not self.verify_token(event_id, token):
            raise EventAccessError("the token does not match this event", key="refusal.event_token")
        return self.table_tokens(event_id)

    def table_tokens(self, event_id: str) -> dict[str, str]:
        """Each seated table's write token by table id, unchecked: for whoever holds the
        database itself (the command line on a local ledger), as table writes need no token
        there."""
        return {table.table_id: table.write_token for table in self._read(event_id).tables}
