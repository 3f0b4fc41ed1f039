"""Events: several tables of four over several rounds, for club nights, leagues and tournaments.

Pure (no I/O, and nothing of the ledger, the API, the pages or the command line): `plan` and
`seating` seat the players round by round, with `history`, `schedules` and `search`; `standings`
makes one leaderboard of the tables' results. docs/events.md states their rules."""
