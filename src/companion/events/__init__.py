"""Events: several tables of four over several rounds, for club nights, leagues and tournaments.

`seating` seats the players round by round (pure: no I/O). docs/events.md states its rules."""
