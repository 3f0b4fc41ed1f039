"""Clubs on the ledger: a club's roster and the tables and events that belong to it, and its
games, ratings and stats read from their records (docs/clubs.md).

- `service`: `ClubBook`, the club's service for the API, the command line and the pages: making
  a club, its roster (add, rename, merge, unmerge), attaching tables and events, a table made in
  a club, and the reads (ratings, a player's stats and history).
- `roster`: the roster read as values: who each name means, merged players followed.
- `games`: a finished table's record read into a `ClubGame` (`companion.clubs.stats`).
- `errors`: the refusals, each with its key for the pages.
"""
