"""Players' names, read one way everywhere: an event's players, its late entries and the
substitutes' reserved names, a table's four players and the names a hand's record gives.

A name is kept as `clean_name` writes it and compared by `name_key`, so that names which look
alike are one name: `Ann` with a zero-width space, fullwidth `\uff21nn` and `Ann` behind a
right-to-left override are all `Ann`. Pure: docs/reliability.md, section 6.10."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_IGNORABLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (NFKC makes U+3164 and U+FFA0 U+1160)
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b\u180c\u180d\u180e\u180f"  # Mongolian variation selectors and vowel separator
    + "".join(chr(code) for code in range(0xFE00, 0xFE10))  # variation selectors
    + "".join(chr(code) for code in range(0xE0100, 0xE01F0))
)
"""Characters that show nothing and are not in the categories `_dropped` leaves out (Cc, Cf)."""


def _dropped(char: str) -> bool:
    """Nothing a reader sees: a control or format character (zero-width spaces and joiners, soft
    hyphens, byte order marks, every bidirectional control) or another invisible one."""
    return unicodedata.category(char) in ("Cc", "Cf") or char in _IGNORABLE


def clean_name(name: str) -> str:
    """The name as kept: NFKC (fullwidth letters and digits as plain ones, a no-break or an
    ideographic space as a space, composed accents), no invisible or bidirectional control
    character, each run of spaces one space, trimmed. Empty when nothing visible is left."""
    text = unicodedata.normalize("NFKC", name)
    kept = "".join(
        " " if char.isspace() else char for char in text if not _dropped(char) or char.isspace()
    )
    return " ".join(kept.split())


@lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """What two names are compared by: the clean name, case folded (`Straße` is `STRASSE`).
    Remembered: a leaderboard of 4,000 tables compares the same few hundred names 20,000 times."""
    return unicodedata.normalize("NFKC", clean_name(name).casefold())


def same_name(first: str, second: str) -> str:
    """The refusal of two players' names that read the same (an event's or a table's)."""
    return (
        f"each player needs a different name: {first} and {second} are the same (names are "
        "compared without case, width, extra spaces or invisible characters)"
    )
