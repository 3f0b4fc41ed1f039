"""What an event's pages show, built from the event's JSON (`EventView.to_json()`) and its
standings' JSON (`Standings.to_json()`): the round and its progress, the round timer, the
leaderboard's rows worded for a person (shared ranks as "=2", amounts in the way the event's
tables count them), the seating of each round, and the organiser's record.

Pure: plain data in, plain data out, so that the pages and their tests read the same words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from companion.rules.riichi.game import one_decimal, points_text
from companion.settlement import format_amount, signed_amount
from companion.web import i18n
from companion.web.event_day_views import day_audit_text

SEATS = ("E", "S", "W", "N")
"""A table's players are listed East, South, West, North."""
SEAT_TILES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}

COLUMNS: Mapping[str, tuple[str, str | None]] = {
    "money": ("evpage.col.total", None),
    "finals": ("evpage.col.final", "evpage.col.points"),
    "table-points": ("evpage.col.table_points", "evpage.col.score"),
}
"""Each standing rule's column headings: what ranks, and the second key (if any)."""


@dataclass(frozen=True)
class RowView:
    """One line of the leaderboard."""

    rank: str
    """ "1", or "=2" for a rank shared with another player."""
    name: str
    total: str
    sign: str
    """ "plus", "minus" or "" (for the colour of the total)."""
    secondary: str
    tables: int
    penalties: tuple[str, ...]
    withdrawn: bool
    provisional: bool


@dataclass(frozen=True)
class TimerView:
    """A round's timer as it stands when the page is rendered (the page's script ticks it)."""

    round: int
    minutes: int
    ends_at: str
    left_ms: int
    """Milliseconds left when the page was rendered (0: time's up). The script counts down
    from it, so a phone whose clock is wrong still shows the right time left."""
    text: str
    paused: bool = False
    """Stood still by the organiser: the script does not count it down."""

    @property
    def done(self) -> bool:
        return self.left_ms <= 0 and not self.paused


@dataclass(frozen=True)
class SeatView:
    seat: str
    seat_tile: str
    name: str


@dataclass(frozen=True)
class TableView:
    number: int
    table_id: str
    seats: tuple[SeatView, ...]
    finished: bool
    hands: int
    status: str


@dataclass(frozen=True)
class RoundView:
    number: int
    title: str
    tables: tuple[TableView, ...]
    byes: str
    """ "Sitting out: Kim" (or "" when nobody sits out)."""
    figures: str
    """The seating's repeats, for the organiser."""
    timer: TimerView | None
    progress: str
    playing: int = 0
    """Of an earlier round still playing: how many of its tables play."""
    link: str = ""
    """Its own page (`/e/{id}?round=N`), where its tables are listed."""
    seated_by: str = ""
    """How the round was seated, where it is worth saying: round 1 balanced by rating."""


STILL_PLAYING_LISTED = 12
"""The most tables of earlier rounds still playing that the leaderboard lists by name; past
it, each such round is one line with its count and a link to its page (`?round=N`), so that a
big event's page shows one round's tables, not every round's (issue 41)."""


def seating_said(t: i18n.Translator, event: Mapping[str, Any], view: RoundView) -> RoundView:
    """Round 1 of an event seated "balanced by rating" says so (the other modes go unsaid)."""
    if view.number == 1 and event.get("first_round") == "balanced":
        return replace(view, seated_by=t("evpage.seated_balanced"))
    return view


def exact(value: Any) -> Fraction:
    """An amount as the JSON gives it: an exact string ("3/2") or a number."""
    return Fraction(str(value))


def rank_text(rank: int, tied: bool) -> str:
    return f"={rank}" if tied else str(rank)


def amount_text(rule: str, value: Fraction) -> str:
    """What ranks a player, as the event's tables count it: money signed (+16), a points
    game's results in thousands with one decimal (+23.1), table points as they are (7, 3/2)."""
    if rule == "finals":
        text = one_decimal(value)
        return text if text.startswith("-") or value == 0 else f"+{text}"
    if rule == "table-points":
        return format_amount(value)
    return signed_amount(value)


def secondary_text(rule: str, value: Fraction) -> str:
    """The second key: a points game's points (61,300), an MCR table's score (signed)."""
    if rule == "finals":
        return points_text(value)
    return signed_amount(value)


def sign_class(value: Fraction) -> str:
    return "plus" if value > 0 else "minus" if value < 0 else ""


def row_views(t: i18n.Translator, standings: Mapping[str, Any]) -> list[RowView]:
    rule = str(standings.get("rule", "money"))
    rows = []
    for row in standings.get("rows", ()):
        total = exact(row.get("total_exact", row["total"]))
        secondary_value = row.get("secondary_exact", row.get("secondary"))
        secondary = "" if secondary_value is None else secondary_text(rule, exact(secondary_value))
        penalties = tuple(
            t(
                "evpage.penalty",
                amount=signed_amount(exact(penalty.get("amount_exact", penalty["amount"]))),
                reason=penalty["reason"],
                by=penalty.get("by") or "—",
            )
            for penalty in row.get("penalties", ())
        )
        rows.append(
            RowView(
                rank=rank_text(int(row["rank"]), bool(row.get("tied"))),
                name=str(row["name"]),
                total=amount_text(rule, total),
                sign=sign_class(total) if rule != "table-points" else "",
                secondary=secondary,
                tables=int(row.get("tables", 0)),
                penalties=penalties,
                withdrawn=bool(row.get("withdrawn")),
                provisional=bool(row.get("provisional")),
            )
        )
    return rows


def clock_text(seconds: int) -> str:
    """41:12, or 1:05:00 past an hour."""
    seconds = max(0, seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def timer_view(
    t: i18n.Translator, round_number: int, timer: Mapping[str, Any] | None, now: datetime
) -> TimerView | None:
    if not timer:
        return None
    ends_at = datetime.fromisoformat(str(timer["ends_at"]))
    paused_at = timer.get("paused_at")
    # A paused timer stands still at what was left when it was paused.
    reference = now if paused_at is None else datetime.fromisoformat(str(paused_at))
    left_ms = max(0, int((ends_at - reference).total_seconds() * 1000))
    # Rounded up, as a countdown reads: 0:01 until the very end, then "time's up".
    left = clock_text(-(-left_ms // 1000))
    if paused_at is not None:
        text = t("evpage.timer_paused", time=left)
    else:
        text = t("evpage.timer_left", time=left) if left_ms else t("evpage.times_up")
    return TimerView(
        round_number,
        int(timer.get("minutes", 0)),
        str(timer["ends_at"]),
        left_ms,
        text,
        paused_at is not None,
    )


def progress_text(t: i18n.Translator, finished: int, tables: int) -> str:
    return t("evpage.progress", finished=finished, tables=tables)


def table_status(t: i18n.Translator, table: Mapping[str, Any]) -> str:
    hands = int(table.get("hands", 0))
    if table.get("ended"):  # ended early by the organiser (issue 39)
        return t(
            "day.status_void" if table["ended"] == "void" else "day.status_stands", hands=hands
        )
    if table.get("finished"):
        return t("evpage.table_finished", hands=hands)
    return t("evpage.table_playing", hands=hands)


def round_view(
    t: i18n.Translator,
    seated: Mapping[str, Any],
    now: datetime,
    only: Sequence[Mapping[str, Any]] | None = None,
) -> RoundView:
    """A seated round as the pages show it: every table, or `only` those (its progress still
    counts them all)."""
    number = int(seated["round"])
    every = seated.get("tables", ())
    tables = tuple(
        TableView(
            number=int(table["number"]),
            table_id=str(table["table"]),
            seats=tuple(
                SeatView(seat, SEAT_TILES[seat], str(name))
                for seat, name in zip(SEATS[: len(table["players"])], table["players"], strict=True)
            ),
            finished=bool(table.get("finished")),
            hands=int(table.get("hands", 0)),
            status=table_status(t, table),
        )
        for table in (every if only is None else only)
    )
    byes: Sequence[str] = seated.get("byes") or ()
    unavoidable = seated.get("unavoidable_repeats")
    figures = t(
        "evpage.repeats" if unavoidable is None else "evpage.repeats_of_unavoidable",
        repeats=int(seated.get("repeats", 0)),
        total=int(seated.get("total_repeats", 0)),
        unavoidable=int(unavoidable or 0),
        seat_repeats=int(seated.get("seat_repeats", 0)),
    )
    finished = sum(1 for table in every if table.get("finished"))
    return RoundView(
        number=number,
        title=t("evpage.round_n", n=number),
        tables=tables,
        byes=t("evpage.byes", names=t("table.ev.list_sep").join(byes)) if byes else "",
        figures=figures,
        timer=timer_view(t, number, seated.get("timer"), now),
        progress=progress_text(t, finished, len(every)),
    )


def playing_text(t: i18n.Translator, playing: Sequence[Mapping[str, Any]]) -> str:
    """The tables a refusal lists as still playing (`refusal.event_tables_playing`), as the
    page's script says them: "table 2 of round 1, table 1 of round 2"."""
    return t("refusal.list_sep").join(
        t("evpage.table_of_round", number=table["number"], round=table["round"])
        for table in playing
    )


def round_of(event: Mapping[str, Any], number: int | None) -> Mapping[str, Any] | None:
    for seated in event.get("seated", ()):
        if int(seated["round"]) == number:
            found: Mapping[str, Any] = seated
            return found
    return None


def event_context(
    t: i18n.Translator,
    event: Mapping[str, Any],
    standings: Mapping[str, Any],
    now: datetime,
    shown: int | None = None,
    rows: Sequence[RowView] | None = None,
) -> dict[str, Any]:
    """What the leaderboard (and the head of the organiser's page) shows: the current round
    and its tables, or round `shown`'s tables (`?round=N`) when it is seated, with a link to
    each seated round; not every round's tables (the organiser's seating has them all,
    `seating_rounds`). `rows`: the standings' rows as worded before for the same version."""
    current = event.get("current_round") or None
    seated = round_of(event, current)
    this_round = None if seated is None else seating_said(t, event, round_view(t, seated, now))
    other = round_of(event, shown) if shown != current else None
    key = str(event["id"])
    rule = str(standings.get("rule", "money"))
    primary, secondary = COLUMNS.get(rule, COLUMNS["money"])
    total_rounds = int(event.get("rounds", 0))
    progress = event.get("progress") or {}
    profile = str(event.get("profile", ""))
    return {
        "event_id": str(event["id"]),
        "event_name": str(event.get("name", "")),
        "profile_label": t.get(f"profile.{profile}", profile),
        "round_text": (
            t("evpage.round_of", n=current, total=total_rounds)
            if current
            else t("evpage.not_seated", total=total_rounds)
        ),
        "progress_text": (
            progress_text(t, int(progress.get("finished", 0)), int(progress.get("tables", 0)))
            if current
            else ""
        ),
        "this_round": this_round,
        "timer": None if this_round is None else this_round.timer,
        "rows": row_views(t, standings) if rows is None else rows,
        "primary_heading": t(primary),
        "secondary_heading": t(secondary) if secondary else "",
        "all_rounds_seated": current is not None and current >= total_rounds,
        "next_round": (current or 0) + 1,
        "shown_round": this_round
        if other is None
        else seating_said(t, event, round_view(t, other, now)),
        "round_links": [
            {
                "number": int(round_["round"]),
                "url": f"/e/{key}?round={int(round_['round'])}",
                "shown": int(round_["round"]) == (current if other is None else shown),
            }
            for round_ in event.get("seated", ())
        ],
        "still_playing": still_playing(t, event, current, now) if other is None else [],
        "can_unseat": seated is not None
        and not any(int(table.get("hands", 0)) for table in seated.get("tables", ())),
        "repeats_note": repeats_note(t, event),
    }


def seating_rounds(t: i18n.Translator, event: Mapping[str, Any], now: datetime) -> list[RoundView]:
    """Every seated round with all its tables: the organiser's seating (not the leaderboard)."""
    return [
        seating_said(t, event, round_view(t, seated, now)) for seated in event.get("seated", ())
    ]


def still_playing(
    t: i18n.Translator, event: Mapping[str, Any], current: int | None, now: datetime
) -> list[RoundView]:
    """The rounds before the current one that still have a table playing, each with its own
    timer: a round seated early does not hide them (issue 37). Their tables are listed while
    they are few (`STILL_PLAYING_LISTED` in all); past that each round is one line with a link
    to its page."""
    key = str(event["id"])
    earlier = []
    for seated in event.get("seated", ()):
        if int(seated["round"]) == current:
            continue
        playing = [table for table in seated.get("tables", ()) if not table.get("finished")]
        if playing:
            earlier.append((seated, playing))
    listed = sum(len(playing) for _, playing in earlier) <= STILL_PLAYING_LISTED
    return [
        replace(
            round_view(t, seated, now, playing if listed else ()),
            playing=len(playing),
            link=f"/e/{key}?round={int(seated['round'])}",
        )
        for seated, playing in earlier
    ]


def repeats_note(t: i18n.Translator, event: Mapping[str, Any]) -> str:
    """What a repeat is, and how many the field cannot avoid over all its rounds: said when the
    event is made, before any round is seated, and beside the rounds after."""
    unavoidable = event.get("unavoidable_repeats") or ()
    if not unavoidable:
        return ""
    players = sum(1 for player in event.get("players", ()) if player.get("joins", 1) == 1)
    return t(
        "evpage.repeats_note",
        players=players,
        rounds=len(unavoidable),
        unavoidable=int(unavoidable[-1]),
    )


AUDIT_KEYS = ("create", "join", "withdraw", "adjust", "seat", "unseat", "timer")


def audit_lines(t: i18n.Translator, audit: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The organiser's record, newest first, one line each: when, what, who."""
    lines = []
    for entry in reversed(audit):
        kind = str(entry.get("kind", ""))
        amount = entry.get("amount_exact", entry.get("amount"))
        fields = {
            "player": entry.get("player") or "",
            "round": "" if entry.get("round") is None else entry["round"],  # a no-show's is 0
            "amount": "" if amount in (None, "") else signed_amount(exact(amount)),
            "reason": entry.get("reason") or "",
            "minutes": (entry.get("details") or {}).get("minutes", ""),
        }
        text = day_audit_text(t, entry)
        if text is None:
            text = t(f"evpage.audit.{kind}", **fields) if kind in AUDIT_KEYS else kind
        lines.append(
            {
                "seq": str(entry.get("seq", "")),
                "at": str(entry.get("at") or entry.get("created_at") or ""),
                "text": text,
                "by": str(entry.get("by") or entry.get("by_name") or ""),
            }
        )
    return lines
