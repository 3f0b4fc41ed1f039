"""The table ledger: a session's record of hands, the state replayed from it, and its storage."""
