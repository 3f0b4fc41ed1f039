"""Events on the ledger: several tables over several rounds, one leaderboard (docs/events.md).

`EventBook` (`service`) keeps an event's record beside the tables it plays at: the event (its
profile and options, rounds and how they are seated), its players with their late entries and
withdrawals, each seated round with its tables (ordinary ledger tables, created by the event),
round timers, and the organiser's append-only record of what they did (`event_audit`). The
seating and the standings are the pure `companion.events` modules: a round is seated from the
rounds stored before it, and the leaderboard is worked out from the tables' own standings and
the adjustments replayed from the record, once for each version of the event (`reads`), with
the event's tables read together and only those that changed replayed (`tables`).

The organiser's token is shown once and kept only as a hash, like a table's write token. The
tables' write tokens are kept as they are (`event_tables.write_token`) and given out only to
whoever shows the event's token (`write_tokens`): the organiser hands out the tables' write
links from the seating page.

Where each part lives:

- `service`: `EventBook`, making an event and reading it; it is made of the parts below.
- `rounds`: seating the next round and creating its tables; the round's timer.
- `unseat`: taking the last round's seating back, before a hand is recorded at its tables.
- `players`: late entries and withdrawals.
- `leaderboard`: penalties and corrections, the standings across tables, the exports.
- `access`: the organiser's token and the tables' write tokens.
- `store`: reading an event's rows and writing one organiser action (the base of the parts).
- `records`: an event's rows read together, and the organiser's record's rows.
- `tables`: the event's tables read together (their standings, kept by last entry), its version.
- `reads`: the event and its standings kept by version, for every page and API read.
- `views`: what the service hands out (`EventView`, `SeatedRound`, `AuditEntry`...).
- `checks`, `errors`: what an organiser sends, checked; the refusals.
"""
