"""Clubs: the people behind a table's names, and how they measure themselves over a season.

`ratings` rates the players from their finished games (OpenSkill, Tenhou-style R and the
total of their results): pure, no I/O, the same figures every time (docs/ratings.md)."""
