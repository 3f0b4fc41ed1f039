"""A tournament's day, as pure rules (docs/event_day.md): what a table still plays once its
round's time is up, what a voided table gives its players, and a player's name as the EMA's
results file splits it.

When the time is up a table finishes the hand in play and then plays the event's
`time_up_hands` more ("+1 hand" is 1); the hands recorded since the time ran out say how many
are left, the hand in play counted."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

MAX_TIME_UP_HANDS = 4
"""The most hands an event plays after the one in play when time is up."""

EMA_ID = re.compile(r"[0-9]{8}")
"""An EMA number: eight digits (the first two the member country's)."""
COUNTRY = re.compile(r"[A-Z]{3}")
"""A country as the EMA's results file gives it: three capital letters (FRA, GBR, NLD)."""

VOID_AVERAGE = "average"
"""The void score that gives each player their average of their other tables."""


@dataclass(frozen=True)
class TimeUp:
    """A table after its round's time ran out."""

    hands_since: int
    """Hands recorded at the table since the time ran out."""
    left: int
    """Hands still to play, the one in play counted: 1 is the last hand, 0 is stop."""

    @property
    def state(self) -> str:
        """`last_hand`, `more_hands` (after the one in play) or `stop`."""
        if self.left <= 0:
            return "stop"
        return "last_hand" if self.left == 1 else "more_hands"

    @property
    def more(self) -> int:
        """Hands after the one in play (for "1 more hand")."""
        return max(0, self.left - 1)


def time_up(time_up_hands: int, hands_since: int) -> TimeUp:
    """What a table still plays when its time is up: the hand in play and `time_up_hands`
    more, less the hands recorded since the time ran out."""
    return TimeUp(hands_since, max(0, time_up_hands + 1 - hands_since))


def average(results: Iterable[Fraction]) -> Fraction:
    """The average of a player's results, 0 when they have none."""
    found = list(results)
    return sum(found, Fraction(0)) / len(found) if found else Fraction(0)


def ema_name(name: str) -> tuple[str, str]:
    """(last name, first name) of a name as entered: the last word is the last name
    ("Ann Lee" is Lee, Ann); a single word is a last name alone."""
    first, _, last = name.strip().rpartition(" ")
    return last, first.strip()
