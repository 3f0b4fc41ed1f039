"""What the pages show of a tournament's day (issue 39), worded for a person: what a table still
plays once its round's time is up ("Time's up · last hand"), the tables running late on the
organiser's page, the organiser's record of the day's actions, and the day's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from companion.ledger.event_book.timer import (
    VOID_AVERAGE,
    LateTable,
    TimeUp,
    hands_since,
    time_up,
)
from companion.ledger.repository import Ledger
from companion.ledger.state import table_key
from companion.web import i18n

if TYPE_CHECKING:
    from companion.ledger.event_book.service import EventBook

DAY_AUDIT = {"swap", "end", "reopen", "rules", "entrant"}
"""The organiser's actions of the day the record words here (a timer's change too)."""


def time_up_text(t: i18n.Translator, state: TimeUp) -> str:
    """ "Time's up · last hand", "Time's up · 1 more hand", "Time's up · play stops"."""
    if state.state == "stop":
        return t("day.time_up_stop")
    if state.state == "last_hand":
        return t("day.time_up_last")
    return t("day.time_up_more", n=state.more)


def table_up_context(
    t: i18n.Translator,
    ledger: Ledger,
    event: Mapping[str, Any],
    seated: Mapping[str, Any],
    table_id: str,
    now: datetime,
) -> dict[str, Any]:
    """For a table's timer line: what the table plays once its round's time is up (the hands
    recorded since counted), and the address of its own line, which says so."""
    key, table = table_key(str(event["id"])), table_key(table_id)
    found: dict[str, Any] = {"timer_url": f"/e/{key}/tables/{table}/timer"}
    timer = seated.get("timer")
    if not timer or timer.get("paused_at"):
        return found
    ends = datetime.fromisoformat(str(timer["ends_at"]))
    since = hands_since(ledger, table, ends) if ends <= now else 0
    found["timer_up_text"] = time_up_text(t, time_up(int(event.get("time_up_hands", 0)), since))
    return found


def table_title(t: i18n.Translator, round_number: int, number: int) -> str:
    """ "Round 1 · Table 3", as the organiser's dialogs name a table."""
    return t("evpage.round_n", n=round_number) + " · " + t("evpage.table_n", n=number)


def late_lines(t: i18n.Translator, late: Sequence[LateTable]) -> list[dict[str, str]]:
    """The tables running late, for the organiser's page."""
    return [
        {
            "table": table.table,
            "title": table_title(t, table.round, table.number),
            "state": table.time_up.state,
            "text": time_up_text(t, table.time_up),
            "since": t("day.hands_since", n=table.time_up.hands_since),
        }
        for table in late
    ]


def rules_text(t: i18n.Translator, time_up_hands: int, void_score: str) -> str:
    """The day's rules in a line: "Time up: finish the hand in play · void table: 0"."""
    hands = t("day.rule_finish") if time_up_hands == 0 else t("day.rule_more", n=time_up_hands)
    void = t("day.void_average") if void_score == VOID_AVERAGE else void_score
    return t("day.rules_line", hands=hands, void=void)


def day_audit_text(t: i18n.Translator, entry: Mapping[str, Any]) -> str | None:
    """The record's line for a day's action, or None for the others."""
    kind = str(entry.get("kind", ""))
    details: Mapping[str, Any] = entry.get("details") or {}
    round_number = entry.get("round") or ""
    change = details.get("change")
    if kind == "timer" and change in ("extend", "pause", "resume"):
        return t(
            f"day.audit.timer_{change}", round=round_number, minutes=details.get("minutes", "")
        )
    if kind not in DAY_AUDIT:
        return None
    if kind == "rules":
        return t(
            "day.audit.rules",
            rules=rules_text(
                t, int(details.get("time_up_hands", 0)), str(details.get("void_score", "0"))
            ),
        )
    if kind == "entrant":
        return t(
            "day.audit.entrant",
            player=entry.get("player") or "",
            ema=details.get("ema_id") or "—",
            country=details.get("country") or "—",
        )
    table = t("evpage.table_of_round", number=details.get("table", ""), round=round_number)
    if kind == "swap":
        order = t("table.ev.list_sep").join(str(name) for name in details.get("after", ()))
        return t("day.audit.swap", table=table, order=order)
    if kind == "end":
        mode = t("day.mode_void") if details.get("mode") == "void" else t("day.mode_stands")
        return t("day.audit.end", table=table, mode=mode, reason=entry.get("reason") or "")
    return t("day.audit.reopen", table=table)


def day_panel_context(
    t: i18n.Translator, book: EventBook, event_id: str, event: Mapping[str, Any]
) -> dict[str, Any]:
    """What the organiser's page shows of the day: the current round's timer as it stands
    (to extend, pause or resume), the day's rules and the tables running late."""
    hands = int(event.get("time_up_hands", 0))
    void_score = str(event.get("void_score", "0"))
    seated = event.get("seated") or ()
    timer = seated[-1].get("timer") if seated else None
    return {
        "day_timer": timer,
        "day_timer_paused": bool(timer and timer.get("paused_at")),
        "day_time_up_hands": hands,
        "day_void_score": void_score,
        "day_rules_text": rules_text(t, hands, void_score),
        "late": late_lines(t, book.late_tables(event_id)),
        "ended": ended_lines(t, event),
    }


def ended_lines(t: i18n.Translator, event: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The tables ended early, each with whether its round is still open (it can be
    reopened: no later round is seated)."""
    seated = event.get("seated") or ()
    last = int(seated[-1]["round"]) if seated else 0
    return [
        {
            "table": table["table"],
            "round": int(round_["round"]),
            "number": int(table["number"]),
            "title": table_title(t, int(round_["round"]), int(table["number"])),
            "mode": t("day.mode_void") if table["ended"] == "void" else t("day.mode_stands"),
            "open": int(round_["round"]) == last,
        }
        for round_ in seated
        for table in round_.get("tables", ())
        if table.get("ended")
    ]
