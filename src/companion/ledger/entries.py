"""What a table's ledger holds: its entries, each an outcome (a win, a drawn hand, an instant
payout) or a correction (a void or an amendment naming the outcome it corrects, by its entry
number), and the one-line text that describes them. What a player records for a hand is a
`Record` (`ledger/records.py`), built into an outcome by `ledger/build.py`.

The ledger is append-only: a correction never changes the entry it corrects. (The database's
table and the exports' JSON still say "event" for an entry, `ledger_events` and `events`:
other programs read those names.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from companion.ledger.records import (
    NO_EXTRAS,
    Extras,
    WinnerRecord,
    WinRecord,
    extras_from_json,
    extras_json,
)
from companion.ledger.state import ZERO, Amounts, add, amounts_text, parse_amounts
from companion.tiles import Wind

# ---------------------------------------------------------------------------------------------
# Outcomes and corrections


@dataclass(frozen=True)
class WinnerScore:
    """One winner's part of a win, as the engine (or the profile's settlement) returned it."""

    player: int
    tai: int
    payments: Amounts
    dealer_tai: int | None = None
    request: Mapping[str, Any] | None = None
    """Full-hand entry: the scoring request as scored. None for agreed tai."""
    patterns: tuple[tuple[str, int], ...] = ()
    hand_notes: tuple[str, ...] = ()
    """What the engine noted of the hand when it was scored (its result's `notes`); stored
    under the key `notes`."""
    flowers: int = 0
    """Of `tai`, the flowers agreed with it (an MCR quick entry: each one more, never toward
    the minimum); stored only when there are some."""

    @property
    def entry(self) -> str:
        return "tai" if self.request is None else "hand"

    def to_json(self) -> dict[str, Any]:
        data = {
            "player": self.player,
            "tai": self.tai,
            "payments": amounts_text(self.payments),
            "dealer_tai": self.dealer_tai,
            "request": None if self.request is None else dict(self.request),
            "patterns": [[name, tai] for name, tai in self.patterns],
            "notes": list(self.hand_notes),
        }
        if self.flowers:
            data["flowers"] = self.flowers
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> WinnerScore:
        return cls(
            player=int(data["player"]),
            tai=int(data["tai"]),
            payments=parse_amounts(data["payments"]),
            dealer_tai=None if data.get("dealer_tai") is None else int(data["dealer_tai"]),
            request=data.get("request"),
            patterns=tuple((str(name), int(tai)) for name, tai in data.get("patterns", ())),
            hand_notes=tuple(str(note) for note in data.get("notes", ())),
            flowers=int(data.get("flowers", 0)),
        )


@dataclass(frozen=True)
class Win:
    winners: tuple[WinnerScore, ...]
    discarder: int | None
    liable: int | None = None
    dealer: int = 0
    """The dealer, streak and round the hand was scored with (the engine's input)."""
    streak: int = 0
    round: Wind = Wind.EAST
    unit: str = "tai"
    """What the winners' `tai` count: `tai`, or `faan` at an `hk` table."""
    extras: Extras = NO_EXTRAS
    """What its record carried besides the win (`records.Extras`)."""
    kind: ClassVar[str] = "win"
    is_hand: ClassVar[bool] = True

    @property
    def self_draw(self) -> bool:
        return self.discarder is None

    @property
    def payments(self) -> Amounts:
        total = ZERO
        for winner in self.winners:
            total = add(total, winner.payments)
        return total

    def as_entered(self, players: Sequence[str]) -> WinRecord:
        """The record that records this win again (agreed tai as agreed, a whole hand as it was
        scored): the win scored at another place in the record."""
        return WinRecord(
            tuple(
                WinnerRecord(players[w.player], tai=w.tai - w.flowers, flowers=w.flowers or None)
                if w.request is None
                else WinnerRecord(players[w.player], hand=w.request)
                for w in self.winners
            ),
            None if self.discarder is None else players[self.discarder],
            None if self.liable is None else players[self.liable],
            extras=self.extras,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "winners": [winner.to_json() for winner in self.winners],
            "discarder": self.discarder,
            "liable": self.liable,
            "scored_with": {
                "dealer": self.dealer,
                "streak": self.streak,
                "round": self.round.value,
            },
        }
        if self.unit != "tai":
            data["unit"] = self.unit
        return data | extras_json(self.extras)


@dataclass(frozen=True)
class Draw:
    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "draw"
    is_hand: ClassVar[bool] = True

    @property
    def payments(self) -> Amounts:
        return ZERO

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **extras_json(self.extras)}


@dataclass(frozen=True)
class Payout:
    """An instant payout (`sg-table`): each of the other three pays the holder."""

    player: int
    event: str
    """The payout's kind (`PayoutKind`); its JSON name stays `event`."""
    at_start: bool
    payments: Amounts
    label: str = ""
    payout_notes: tuple[str, ...] = ()
    """What the payout's rules noted of it (a kong dealt whole pays nothing); stored under
    the key `notes`."""
    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "payout"
    is_hand: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "event": self.event,
            "at_start": self.at_start,
            "payments": amounts_text(self.payments),
            "label": self.label,
            "notes": list(self.payout_notes),
            **extras_json(self.extras),
        }


@dataclass(frozen=True)
class Stop:
    """A money table's stop: the session ends here. It pays nothing and plays no hand; the
    table is finished until it is voided."""

    extras: Extras = NO_EXTRAS
    kind: ClassVar[str] = "stop"
    is_hand: ClassVar[bool] = False

    @property
    def payments(self) -> Amounts:
        return ZERO

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **extras_json(self.extras)}


@dataclass(frozen=True)
class GameHand:
    """An outcome of a points game (riichi): a win, an exhaustive or abortive draw, a chombo
    or the dealer's stop, stored as the game reads it (`game`: `outcome_json`, players by
    their seat at the start). What it pays is worked out by replaying the game to its place,
    so a correction earlier in the record changes it.

    `requests`: each whole-hand winner's scoring request as it was scored (the game keeps
    its han and fu, or its yakuman). `payments`: what it moved when it was built (each
    player's points, riichi sticks and deposits included), for the preview."""

    game: Mapping[str, Any]
    requests: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    payments: Amounts = ZERO
    label: str = ""
    """The hand it was played in when it was built ("East 3, 2 honba")."""
    calls: tuple[str, ...] = ()
    """Each paid winner's call when it was built ("8000", "2000-4000")."""
    extras: Extras = NO_EXTRAS

    @property
    def game_kind(self) -> str:
        return str(self.game.get("kind"))

    @property
    def kind(self) -> str:
        """The stored entry's kind: a win, or a drawn hand for every other outcome."""
        return "win" if self.game_kind == "win" else "draw"

    @property
    def is_hand(self) -> bool:
        """A stop ends the game and plays no hand."""
        return self.game_kind != "stop"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": dict(self.game),
            "requests": [[player, dict(request)] for player, request in self.requests],
            "payments": amounts_text(self.payments),
            "label": self.label,
            "calls": list(self.calls),
            **extras_json(self.extras),
        }


Outcome = Win | Draw | Payout | GameHand | Stop


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    kind = data.get("kind")
    if "game" in data:
        return GameHand(
            game=dict(data["game"]),
            requests=tuple((int(player), dict(request)) for player, request in data["requests"]),
            payments=parse_amounts(data["payments"]),
            label=str(data.get("label", "")),
            calls=tuple(str(call) for call in data.get("calls", ())),
            extras=extras_from_json(data),
        )
    if kind == "win":
        scored = data.get("scored_with") or {}
        return Win(
            winners=tuple(WinnerScore.from_json(item) for item in data["winners"]),
            discarder=None if data.get("discarder") is None else int(data["discarder"]),
            liable=None if data.get("liable") is None else int(data["liable"]),
            dealer=int(scored.get("dealer", 0)),
            streak=int(scored.get("streak", 0)),
            round=Wind(scored.get("round", "E")),
            unit=str(data.get("unit", "tai")),
            extras=extras_from_json(data),
        )
    if kind == "draw":
        return Draw(extras_from_json(data))
    if kind == "stop":
        return Stop(extras_from_json(data))
    if kind == "payout":
        return Payout(
            player=int(data["player"]),
            event=str(data["event"]),
            at_start=bool(data["at_start"]),
            payments=parse_amounts(data["payments"]),
            label=str(data.get("label", "")),
            payout_notes=tuple(str(note) for note in data.get("notes", ())),
            extras=extras_from_json(data),
        )
    raise ValueError(f"unknown stored outcome kind {kind!r}")


@dataclass(frozen=True)
class Correction:
    """A void (`replacement` None) or an amendment of the outcome recorded as entry `target`."""

    target: int
    replacement: Outcome | None
    reason: str
    by: str = ""

    @property
    def kind(self) -> str:
        return "void" if self.replacement is None else "amend"


@dataclass(frozen=True)
class Entry:
    """One entry of the ledger ("entry N"): its number on the table (1, 2, ...), when, and
    what. Stored as a row of `ledger_events` (the name other programs read)."""

    seq: int
    at: datetime
    body: Outcome | Correction
    key: str | None = None

    @property
    def kind(self) -> str:
        return self.body.kind


# ---------------------------------------------------------------------------------------------
# Describing entries


def outcome_text(players: Sequence[str], outcome: Outcome) -> str:
    """One line for a person: "Ann wins 3 tai from Ben", "Drawn hand", ..."""
    if isinstance(outcome, GameHand):
        return game_text(players, outcome.game)
    if isinstance(outcome, Draw):
        return "Drawn hand"
    if isinstance(outcome, Stop):
        return "Table stopped"
    if isinstance(outcome, Payout):
        start = " held at the start" if outcome.at_start else ""
        return f"Instant payout: {players[outcome.player]}, {outcome.label or outcome.event}{start}"
    parts = []
    for winner in outcome.winners:
        how = "hand" if winner.request is not None else "agreed"
        if winner.flowers:
            how += f", {winner.flowers} of them flowers"
        dealer = f" + {winner.dealer_tai} dealer tai" if winner.dealer_tai else ""
        parts.append(f"{players[winner.player]} wins {winner.tai} {outcome.unit}{dealer} ({how})")
    text = " and ".join(parts)
    if outcome.discarder is None:
        text += ", self-drawn"
    else:
        text += f" on {players[outcome.discarder]}'s discard"
    if outcome.liable is not None:
        text += f"; {players[outcome.liable]} pays for all"
    return text


def winner_value_text(winner: Mapping[str, Any]) -> str:
    """A points game's winner's value as players say it: "3 han 30 fu", "mangan", "yakuman"."""
    yakuman = int(winner.get("yakuman") or 0)
    if yakuman:
        return "yakuman" if yakuman == 1 else f"{yakuman}x yakuman"
    if winner.get("limit"):
        return str(winner["limit"]).replace("_", " ")
    fu = winner.get("fu")
    return f"{winner.get('han', 0)} han" + (f" {fu} fu" if fu else "")


def game_text(players: Sequence[str], game: Mapping[str, Any]) -> str:
    """A points game's outcome in one line: "Bo wins 3 han 30 fu on Aki's discard",
    "Exhaustive draw: Aki, Bo tenpai", "Chombo: Dana"."""
    kind = game.get("kind")

    def names(key: str) -> str:
        return ", ".join(players[int(player)] for player in game.get(key, ()))

    riichi = f"; riichi: {names('riichi')}" if game.get("riichi") else ""
    if kind == "win":
        parts = [
            f"{players[int(winner['player'])]} wins {winner_value_text(winner)}"
            + (
                f" ({players[int(winner['liable'])]} liable)"
                if winner.get("liable") is not None
                else ""
            )
            for winner in game["winners"]
        ]
        text = " and ".join(parts)
        discarder = game.get("discarder")
        text += ", self-drawn" if discarder is None else f" on {players[int(discarder)]}'s discard"
        return text + riichi
    if kind == "exhaustive_draw":
        tenpai = f"{names('tenpai')} tenpai" if game.get("tenpai") else "nobody tenpai"
        nagashi = f"; nagashi mangan: {names('nagashi')}" if game.get("nagashi") else ""
        return f"Exhaustive draw: {tenpai}{nagashi}{riichi}"
    if kind == "abortive_draw":
        return f"Abortive draw ({str(game.get('abortive', '')).replace('_', ' ')}){riichi}"
    if kind == "chombo":
        return f"Chombo: {players[int(game['player'])]}"
    return "The dealer stops the game"


def correction_text(
    players: Sequence[str],
    correction: Correction,
    *,
    voids: Callable[[int], str] = "Voids entry {}".format,
    amends: Callable[[int, str], str] = "Amends entry {}: {}".format,
    describe: Callable[[Outcome], str] | None = None,
) -> str:
    """What a correction does, in one line: "Voids entry 3", "Amends entry 3: Ann wins 2 tai
    ...". The export's wording by default; the command line and the pages pass their own
    `voids(n)` and `amends(n, text)`, and `describe` words the amended outcome (`outcome_text`
    by default)."""
    if correction.replacement is None:
        return voids(correction.target)
    text = (describe or partial(outcome_text, players))(correction.replacement)
    return amends(correction.target, text)
