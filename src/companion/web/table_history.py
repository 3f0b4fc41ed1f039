"""A table's history as its page shows it: each entry's line in the page's language, its
amounts, badges, warnings and extras, what Amend prefills, and one page of them. Each entry is
taken whole, as replay gives it (`HistoryEntry`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from fractions import Fraction
from typing import Any

from companion.ledger.entries import (
    Correction,
    Draw,
    GameHand,
    Outcome,
    Payout,
    Stop,
    Win,
    correction_text,
)
from companion.ledger.records import extras_shown
from companion.ledger.replay import HistoryEntry, Replay
from companion.rules.riichi.game import HandLabel, points_text
from companion.settlement import signed_amount
from companion.tiles import Wind
from companion.web import i18n

HISTORY_PAGE = 50
"""Entries per page of a table's history (newest first; an "older" link shows the next)."""


def sign_class(amount: Fraction) -> str:
    return "plus" if amount > 0 else "minus" if amount < 0 else ""


def wind_name(t: i18n.Translator, wind: Wind) -> str:
    return t(f"wind.{wind.value}")


def hand_label(t: i18n.Translator, label: HandLabel) -> str:
    """ "East 3, 2 honba" in the page's language."""
    return t("table.hand_label", wind=wind_name(t, label.round), n=label.number, honba=label.honba)


def signed_points(amount: Fraction) -> str:
    """+7,700, -1,500 ."""
    text = points_text(abs(amount))
    return f"+{text}" if amount > 0 else f"-{text}" if amount < 0 else text


@dataclass(frozen=True)
class AmountView:
    name: str
    text: str
    sign: str


@dataclass(frozen=True)
class EntryView:
    seq: int
    kind: str
    status: str
    correction: bool
    at: str
    time: str
    context: str
    text: str
    amounts: tuple[AmountView, ...]
    badge: str = ""
    reason: str = ""
    extras: tuple[tuple[str, str], ...] = ()
    """What the record carried besides its kind's fields (`records.Extras`): each given one's
    label, in the page's language where it has words of its own, and its value."""
    warnings: tuple[str, ...] = ()
    """The history line's warnings, in the page's language (a win a correction made stale)."""
    can_void: bool = False
    can_amend: bool = False
    prefill: dict[str, str] = field(default_factory=dict)
    version: int = 0
    what: str = ""
    """What players call it ("hand 17"), for Amend's and Void's titles: players count hands,
    the entry number (`seq`) is the history's audit detail."""


def value_text(t: i18n.Translator, winner: dict[str, Any]) -> str:
    """A points game's winner's value: "3 han 30 fu", "mangan", "yakuman"."""
    yakuman = int(winner.get("yakuman") or 0)
    if yakuman:
        return t("table.value.yakuman", n=yakuman)
    if winner.get("limit"):
        return t.get(f"table.limit.{winner['limit']}", str(winner["limit"]))
    if winner.get("fu"):
        return t("table.value.han_fu", han=winner.get("han", 0), fu=winner["fu"])
    return t("table.value.han", han=winner.get("han", 0))


def game_text(t: i18n.Translator, players: tuple[str, ...], hand: GameHand) -> str:
    """A points game's outcome in the page's language."""
    game = hand.game

    def names(key: str) -> str:
        return t("table.ev.list_sep").join(players[int(player)] for player in game.get(key, ()))

    kind = hand.game_kind
    if kind == "win":
        parts = []
        discarder = game.get("discarder")
        for winner in game["winners"]:
            fields = {"winner": players[int(winner["player"])], "value": value_text(t, winner)}
            if discarder is None:
                parts.append(t("table.ev.game_win_self", **fields))
            else:
                parts.append(
                    t("table.ev.game_win_from", discarder=players[int(discarder)], **fields)
                )
            if winner.get("liable") is not None:
                parts[-1] += " " + t("table.ev.liable", name=players[int(winner["liable"])])
        text = t("table.ev.and").join(parts)
    elif kind == "exhaustive_draw":
        text = (
            t("table.ev.exhaustive", names=names("tenpai"))
            if game.get("tenpai")
            else t("table.ev.exhaustive_none")
        )
        if game.get("nagashi"):
            text += " · " + t("table.ev.nagashi", names=names("nagashi"))
    elif kind == "abortive_draw":
        text = t("table.ev.abortive")
    elif kind == "chombo":
        return t("table.ev.chombo", name=players[int(game["player"])])
    else:
        return t("table.ev.stop")
    if game.get("riichi"):
        text += " · " + t("table.ev.riichi", names=names("riichi"))
    return text


def outcome_text(t: i18n.Translator, players: tuple[str, ...], outcome: Outcome) -> str:
    """One line for a person, in the page's language."""
    if isinstance(outcome, GameHand):
        return game_text(t, players, outcome)
    if isinstance(outcome, Draw):
        return t("table.ev.draw")
    if isinstance(outcome, Stop):
        return t("table.ev.table_stopped")
    if isinstance(outcome, Payout):
        what = t.get(f"payout.{outcome.event}", outcome.label or outcome.event)
        text = t("table.ev.payout", player=players[outcome.player], event=what)
        return f"{text} {t('table.ev.at_start')}" if outcome.at_start else text
    assert isinstance(outcome, Win)
    parts = []
    for winner in outcome.winners:
        name = players[winner.player]
        if outcome.discarder is None:
            part = t("table.ev.win_self", winner=name, tai=winner.tai)
        else:
            discarder = players[outcome.discarder]
            part = t("table.ev.win_from", winner=name, tai=winner.tai, discarder=discarder)
        if winner.dealer_tai:
            part += " " + t("table.ev.dealer_tai", n=winner.dealer_tai)
        if winner.flowers:
            part += " " + t("table.ev.flowers", n=winner.flowers)
        if winner.request is not None:
            part += " " + t("table.ev.full_hand")
        parts.append(part)
    text = t("table.ev.and").join(parts)
    if outcome.liable is not None:
        text += " " + t("table.ev.liable", name=players[outcome.liable])
    return text


def _prefill(outcome: Outcome | None) -> dict[str, str]:
    """What the record form starts from when this entry is amended."""
    if isinstance(outcome, Win) and len(outcome.winners) == 1:
        winner = outcome.winners[0]
        return {
            "kind": "win",
            "winner": str(winner.player),
            "from": "" if outcome.discarder is None else str(outcome.discarder),
            "tai": str(winner.tai - winner.flowers),
            "flowers": str(winner.flowers) if winner.flowers else "",
            "liable": "" if outcome.liable is None else str(outcome.liable),
        }
    if isinstance(outcome, Win):
        # Several winners on one discard (`tw`): "player:tai" for each, in the record's order.
        return {
            "kind": "win",
            "winners": ",".join(f"{winner.player}:{winner.tai}" for winner in outcome.winners),
            "from": "" if outcome.discarder is None else str(outcome.discarder),
        }
    if isinstance(outcome, Payout):
        return {
            "kind": "payout",
            "player": str(outcome.player),
            "event": outcome.event,  # the payout's kind, as the form's script reads it
            "at-start": "true" if outcome.at_start else "",
        }
    if isinstance(outcome, Draw):
        return {"kind": "draw"}
    if isinstance(outcome, GameHand):
        return _game_prefill(outcome)
    return {"kind": "win"}


def _game_prefill(hand: GameHand) -> dict[str, str]:
    game = hand.game
    riichi = ",".join(str(player) for player in game.get("riichi", ()))
    if hand.game_kind == "win" and len(game["winners"]) == 1:
        winner = game["winners"][0]
        discarder = game.get("discarder")
        return {
            "kind": "win",
            "winner": str(winner["player"]),
            "from": "self" if discarder is None else str(discarder),
            "han": "Y" if winner.get("yakuman") else str(winner.get("han", "")),
            "fu": str(winner.get("fu", "")),
            "riichi": riichi,
        }
    if hand.game_kind == "exhaustive_draw":
        tenpai = ",".join(str(player) for player in game.get("tenpai", ()))
        return {"kind": "draw", "tenpai": tenpai, "riichi": riichi}
    if hand.game_kind == "chombo":
        return {"kind": "chombo", "chombo-player": str(game["player"])}
    return {"kind": "win"}


def _stale_warnings(
    t: i18n.Translator, players: tuple[str, ...], entry: HistoryEntry
) -> tuple[str, ...]:
    """The ledger's note that a correction changed what this win would pay, in the page's
    language (the ledger notes it only when an amount would differ)."""
    win = entry.effective
    if not entry.warnings or not isinstance(win, Win):
        return entry.warnings
    now = entry.before
    return (
        t(
            "table.ev.stale",
            dealer=players[win.dealer],
            round=wind_name(t, win.round),
            streak=win.streak,
            now_dealer=players[now.dealer],
            now_round=wind_name(t, now.round),
            now_streak=now.streak,
        ),
    )


def entry_what(t: i18n.Translator, hand: int | None, is_hand: bool) -> str:
    """ "hand 17", "the payout in hand 17", or "this entry" (a voided hand is in no hand)."""
    if hand is None:
        return t("table.what.entry")
    return t("table.what.hand" if is_hand else "table.what.payout", n=hand)


def entry_time(at: datetime, today: date) -> str:
    """The time of day, with the date when it is not today (a table kept over several nights);
    in UTC here, and in the reader's own time zone once the page's script runs."""
    return at.strftime("%H:%M UTC" if at.date() == today else "%Y-%m-%d %H:%M UTC")


def entry_view(
    t: i18n.Translator, players: tuple[str, ...], entry: HistoryEntry, today: date | None = None
) -> EntryView:
    stored, body = entry.stored, entry.stored.body
    today = today or datetime.now(UTC).date()
    seq, at, time = stored.seq, stored.at.isoformat(), entry_time(stored.at, today)
    if isinstance(body, Correction):
        text = correction_text(
            players,
            body,
            voids=lambda n: t("table.ev.voids", n=n),
            amends=lambda n, text: t("table.ev.amends", n=n, text=text),
            describe=lambda outcome: outcome_text(t, players, outcome),
        )
        # Who corrected it, when known (an undo on the recording device names nobody).
        reason = (
            t("table.ev.reason", reason=body.reason, by=body.by)
            if body.by
            else t("table.ev.reason_only", reason=body.reason)
        )
        return EntryView(
            seq=seq,
            at=at,
            time=time,
            kind=body.kind,
            status=entry.status,
            correction=True,
            context=t("table.ev.correction"),
            text=text,
            amounts=(),
            reason=reason,
        )
    state = entry.before
    context_parts = []
    if entry.hand is not None:
        key = "table.ev.hand" if body.is_hand else "table.ev.in_hand"
        context_parts.append(t(key, n=entry.hand))
    if state.game is not None and state.game.hand is not None:
        context_parts.append(hand_label(t, state.game.hand))
    else:
        context_parts.append(
            t("table.ev.context", round=wind_name(t, state.round), dealer=players[state.dealer])
        )
    badge = ""
    if entry.status == "voided":
        badge = t("table.ev.voided_by", n=entry.corrected_by)
    elif entry.status == "amended":
        badge = t("table.ev.amended_by", n=entry.corrected_by)
    shown = entry.effective if entry.status == "amended" and entry.effective else body
    shown_amount = signed_amount if state.game is None else signed_points
    amounts = tuple(
        AmountView(name, shown_amount(amount), sign_class(amount))
        for name, amount in zip(players, entry.amounts, strict=True)
        if amount
    )
    warnings = _stale_warnings(t, players, entry)
    if entry.refused:
        warnings = (*warnings, t("table.ev.refused", why=entry.refused))
    return EntryView(
        seq=seq,
        at=at,
        time=time,
        kind=body.kind,
        status=entry.status,
        correction=False,
        context=" · ".join(context_parts),
        text=outcome_text(t, players, shown),
        amounts=amounts,
        badge=badge,
        extras=tuple(
            (t.get(f"table.extra.{name}", label), value)
            for name, label, value in extras_shown(shown.extras)
        ),
        warnings=warnings,
        can_void=entry.status != "voided",
        # A voided hand counts nothing and stays void: a hand the table still wants is
        # recorded anew, not amended back from the void. A stop is undone by its void.
        can_amend=entry.status != "voided" and not isinstance(body, Stop),
        prefill=_prefill(entry.effective or body),
        version=entry.version,
        what=entry_what(t, entry.hand, body.is_hand),
    )


def history_page(t: i18n.Translator, replayed: Replay, before: int | None) -> dict[str, Any]:
    """One page of the history, newest first: the `HISTORY_PAGE` entries before entry `before`
    (None: the newest), and the entry numbers its "older" link starts from (None on the
    oldest page). Entries run 1..n, so a page is a slice: its cost does not grow with the table."""
    entries = replayed.entries
    total = len(entries)
    end = total if before is None else max(0, min(total, before - 1))
    start = max(0, end - HISTORY_PAGE)
    players = replayed.setup.players
    today = datetime.now(UTC).date()
    return {
        "entries": [entry_view(t, players, entry, today) for entry in reversed(entries[start:end])],
        "history_total": total,
        "history_first": start + 1,
        "history_last": end,
        "history_older": entries[start].stored.seq if start > 0 else None,
        "history_newer": end < total,
    }
