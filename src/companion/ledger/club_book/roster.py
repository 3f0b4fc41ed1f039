"""A club's roster read as values: its players, the names that mean each of them, and merged
players followed to the one who counts; and the checks of a name the roster takes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from companion.ledger.checks import check_storable
from companion.ledger.club_book.errors import ClubConflictError, ClubError, UnknownClubPlayerError
from companion.ledger.errors import LimitError
from companion.ledger.models import ClubAliasRow, ClubPlayerRow
from companion.ledger.rows import aware
from companion.ledger.state import MAX_PLAYER_NAME
from companion.names import clean_name, name_key

MAX_NICKNAME = MAX_PLAYER_NAME
MAX_EMA_ID = 32


@dataclass(frozen=True)
class RosterPlayer:
    """A person on the roster: `key` is what their ratings are kept under (`p<id>`), `names`
    every name that means them (their own first), `merged_into` the key of the player they
    were merged into, if any."""

    id: int
    name: str
    nickname: str | None
    ema_id: str | None
    joined_at: datetime
    merged_into: int | None
    names: tuple[str, ...]

    @property
    def key(self) -> str:
        return player_key(self.id)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "nickname": self.nickname,
            "ema_id": self.ema_id,
            "joined": self.joined_at.date().isoformat(),
            "merged_into": self.merged_into,
        }


def player_key(player_id: int) -> str:
    return f"p{player_id}"


GUEST_PREFIX = "guest:"
"""The key of a name at a club's table that is not on its roster (a late entrant of an event,
say): rated under its name until the organiser adds it."""


@dataclass(frozen=True)
class Roster:
    """Every player of a club, merged ones included, and who each name means."""

    players: Mapping[int, RosterPlayer]
    aliases: Mapping[str, int]
    """Player id by `name_key` of every name a player has had."""

    @classmethod
    def of(cls, players: Iterable[ClubPlayerRow], aliases: Iterable[ClubAliasRow]) -> Roster:
        alias_rows = list(aliases)
        names: dict[int, list[str]] = {}
        for alias in alias_rows:
            names.setdefault(alias.player_id, []).append(alias.name_key)
        return cls(
            players={
                row.id: RosterPlayer(
                    id=row.id,
                    name=row.name,
                    nickname=row.nickname,
                    ema_id=row.ema_id,
                    joined_at=aware(row.joined_at),
                    merged_into=row.merged_into,
                    names=tuple(sorted(names.get(row.id, []))),
                )
                for row in players
            },
            aliases={alias.name_key: alias.player_id for alias in alias_rows},
        )

    def counting(self, player_id: int) -> RosterPlayer:
        """The player who counts for `player_id`: merges followed to the end."""
        player = self.players[player_id]
        seen = {player.id}
        while player.merged_into is not None and player.merged_into not in seen:
            player = self.players[player.merged_into]
            seen.add(player.id)
        return player

    def find(self, name: str) -> RosterPlayer | None:
        """The player (merges followed) a name means, or None."""
        found = self.aliases.get(name_key(name))
        return None if found is None else self.counting(found)

    def own(self, name: str) -> RosterPlayer:
        """The roster entry the name means itself (merged or not), or a 404 refusal."""
        found = self.aliases.get(name_key(name))
        if found is None:
            shown = clean_name(name) if isinstance(name, str) else repr(name)
            raise UnknownClubPlayerError(
                f"no player of this club is called {shown}",
                key="refusal.club_player_unknown",
                params={"name": shown},
            )
        return self.players[found]

    def key_of(self, name: str) -> str:
        """What a table's name is rated under: the roster's player, or the name as a guest."""
        found = self.find(name)
        return GUEST_PREFIX + clean_name(name) if found is None else found.key

    def name_of(self, key: str) -> str:
        """The name a rating's key shows."""
        if key.startswith(GUEST_PREFIX):
            return key.removeprefix(GUEST_PREFIX)
        return self.players[int(key.removeprefix("p"))].name

    def active(self) -> tuple[RosterPlayer, ...]:
        """The players who count (not merged into another), in the order they joined."""
        return tuple(player for player in self.players.values() if player.merged_into is None)


def roster_name(name: str, *, what: str = "a player's name") -> str:
    """A name the roster takes: cleaned (`clean_name`), not empty, at most `MAX_PLAYER_NAME`
    characters (a roster's name sits at a table), without a comma (a table refuses one)."""
    check_storable(name, what)
    if not isinstance(name, str):
        raise ClubError("a player's name cannot be empty", key="refusal.club_player_empty")
    cleaned = clean_name(name)
    if not cleaned:
        raise ClubError("a player's name cannot be empty", key="refusal.club_player_empty")
    if len(cleaned) > MAX_PLAYER_NAME:
        raise LimitError(
            f"a player's name can have at most {MAX_PLAYER_NAME} characters: {cleaned[:20]}...",
            key="refusal.club_player_long",
            params={"most": MAX_PLAYER_NAME, "start": cleaned[:20]},
        )
    if "," in cleaned:
        raise ClubError(
            f"a player's name cannot contain a comma: {cleaned}",
            key="refusal.club_player_comma",
            params={"name": cleaned},
        )
    return cleaned


def optional_text(text: str | None, what: str, most: int) -> str | None:
    """A nickname or an EMA id: cleaned, None when empty, refused past `most` characters."""
    if text is None:
        return None
    check_storable(text, what)
    cleaned = clean_name(text)
    if len(cleaned) > most:
        raise LimitError(
            f"{what} can have at most {most} characters",
            key="refusal.club_text_long",
            params={"what": what, "most": most},
        )
    return cleaned or None


def refuse_taken(roster: Roster, name: str, *, allowed: int | None = None) -> None:
    """Refuse a name another player already has (or had): names are compared as `name_key`
    compares them, so `ann` and `ANN` clash."""
    taken = roster.aliases.get(name_key(name))
    if taken is not None and taken != allowed:
        holder = roster.players[taken].name
        raise ClubConflictError(
            f"the name {name} is taken: it means {holder} (names are compared without case, "
            "width, extra spaces or invisible characters)",
            key="refusal.club_same_name",
            params={"name": name, "holder": holder},
        )
