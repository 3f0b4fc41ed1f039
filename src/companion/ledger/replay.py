"""Replay: the state after every entry of the record, the history a player reads, and the checks
of a new entry or a correction against it.

Replay walks the outcomes in order; an outcome with a correction in force counts as its latest
correction says (nothing for a void, the amended outcome for an amendment), at its own place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.context import next_deal
from companion.errors import CompanionError
from companion.ledger.build import build_outcome, build_win
from companion.ledger.entries import (
    Correction,
    Draw,
    Entry,
    GameHand,
    Outcome,
    Payout,
    Stop,
    Win,
)
from companion.ledger.errors import (
    LimitError,
    MissingEntryError,
    StaleWriteError,
    TableFinishedError,
    UnknownEntryError,
)
from companion.ledger.records import Record
from companion.ledger.state import (
    MAX_CORRECTIONS,
    Amounts,
    TableSetup,
    TableState,
    add,
    initial_state,
)

# ---------------------------------------------------------------------------------------------
# Replay


def advance(state: TableState, outcome: Outcome, setup: TableSetup) -> TableState:
    """The state after one outcome. The dealer keeps the deal on a drawn hand (the streak as it
    was, or one more where the table counts a draw as a dealer repeat) and on a win that
    includes the dealer (the streak grows); any other win passes the deal to the next player
    and resets the streak. Passing from the fourth player back to the first advances the
    round wind; where the profile passes the deal after every hand (`deal_passes`), every
    hand passes it. Instant payouts change only the totals; a money table's stop only ends the
    table. A points game's outcome moves the game (`game_table`)."""
    if isinstance(outcome, GameHand):
        from companion.ledger.game_table import advance_game, game_step

        return advance_game(state, game_step(setup, state, outcome), outcome.is_hand)
    if isinstance(outcome, Stop):
        return replace(state, stopped=True)
    totals = add(state.totals, outcome.payments)
    if isinstance(outcome, Payout):
        return replace(state, totals=totals)
    winners = () if isinstance(outcome, Draw) else [winner.player for winner in outcome.winners]
    if setup.deal_passes:
        passes, streak = True, 0
    else:
        passes, streak = next_deal(
            state.dealer, state.streak, winners, draw_repeats=setup.draw_repeats_deal
        )
    return replace(
        state, totals=totals, hands=state.hands + 1, passes=state.passes + passes, streak=streak
    )


@dataclass(frozen=True)
class HistoryEntry:
    """One entry of the record as the corrected record reads it."""

    stored: Entry
    """The entry as stored; `status` and `effective` say what it counts for now."""
    status: str
    """`recorded`, `voided` or `amended` for an outcome; `void` or `amend` for a correction."""
    effective: Outcome | None
    """What counts at this place: the outcome, its amendment, or nothing."""
    hand: int | None
    """The hand number of a win or drawn hand that counts (instant payouts: the hand they
    happened in)."""
    before: TableState
    after: TableState
    corrected_by: int | None = None
    warnings: tuple[str, ...] = ()
    """Said when a correction earlier in the record changed what this win would pay: its
    stored payments stand until it is amended (`_stale_warnings`)."""
    version: int = 0
    """How many corrections this outcome has had: a correction names the version it corrects
    (`expect`), so two people correcting one entry at once cannot both win silently."""

    refused: str = ""
    """Why an outcome no longer counts: a correction earlier in the record made it impossible
    at its place (a points game's riichi by a player now under 1,000 points, a hand after the
    game's new end). It counts nothing until it is voided or amended."""

    @property
    def amounts(self) -> Amounts:
        """What this entry moved: each player's total after it less before."""
        return tuple(a - b for a, b in zip(self.after.totals, self.before.totals, strict=True))


@dataclass(frozen=True)
class Replay:
    setup: TableSetup
    state: TableState
    entries: tuple[HistoryEntry, ...]

    def entry(self, seq: int) -> HistoryEntry:
        if 1 <= seq <= len(self.entries) and self.entries[seq - 1].stored.seq == seq:
            return self.entries[seq - 1]  # entries run 1..n: the usual case, without a search
        for entry in self.entries:
            if entry.stored.seq == seq:
                return entry
        raise MissingEntryError(f"this table has no entry {seq}")


def replay(setup: TableSetup, entries: Sequence[Entry]) -> Replay:
    """Replay the record in entry order, each outcome as its latest correction says."""
    latest: dict[int, Entry] = {}
    versions: dict[int, int] = {}
    for stored in entries:
        if isinstance(stored.body, Correction):
            latest[stored.body.target] = stored
            versions[stored.body.target] = versions.get(stored.body.target, 0) + 1
    state = initial_state(setup)
    history: list[HistoryEntry] = []
    for stored in entries:
        entry = _history_entry(setup, state, stored, latest.get(stored.seq))
        if stored.seq in versions:
            entry = replace(entry, version=versions[stored.seq])
        history.append(entry)
        state = entry.after
    return Replay(setup, state, tuple(history))


def extend(replayed: Replay, stored: Entry) -> Replay:
    """`replayed` with one more outcome appended: the same as replaying the whole record, but
    without going over it again. A correction changes earlier entries, so it needs `replay`."""
    if isinstance(stored.body, Correction):
        raise ValueError("a correction is replayed with the whole record")
    entry = _history_entry(replayed.setup, replayed.state, stored, None)
    return Replay(replayed.setup, entry.after, (*replayed.entries, entry))


def _history_entry(
    setup: TableSetup, state: TableState, stored: Entry, correction: Entry | None
) -> HistoryEntry:
    """How one entry reads at its place in the record, given its latest correction."""
    body = stored.body
    if isinstance(body, Correction):
        return HistoryEntry(stored, body.kind, None, None, state, state)
    effective: Outcome | None = body
    status = "recorded"
    if correction is not None:
        assert isinstance(correction.body, Correction)
        effective = correction.body.replacement
        status = "voided" if effective is None else "amended"
    after = state
    warnings: tuple[str, ...] = ()
    hand: int | None = None
    refused = ""
    if effective is not None:
        try:
            after = advance(state, effective, setup)
        except CompanionError as error:
            if not isinstance(effective, GameHand):
                raise
            refused = error.message
            effective = None
            status = "invalid"
        if effective is None or isinstance(effective, Stop):
            pass  # a money table's stop is in no hand: it ends them
        elif effective.is_hand:
            hand = after.hands
        else:
            hand = state.next_hand
        if isinstance(effective, Win):
            warnings = _stale_warnings(setup, state, effective)
    return HistoryEntry(
        stored,
        status,
        effective,
        hand,
        state,
        after,
        None if correction is None else correction.seq,
        warnings,
        refused=refused,
    )


def _stale_warnings(setup: TableSetup, state: TableState, win: Win) -> tuple[str, ...]:
    """A note when a correction earlier in the record changed the dealer, streak or round this
    win was scored with, and that changes what it pays: its stored payments stand until it is
    amended."""
    if (win.dealer, win.streak, win.round) == (state.dealer, state.streak, state.round):
        return ()
    try:
        again = _resettle(setup, state, win)
    except CompanionError:
        again = None
    if again == win.payments:
        return ()  # the same money either way: nothing to say
    players = setup.players
    # Where the deal passes every hand there is no streak to speak of.
    streak, now_streak = (
        ("", "") if setup.deal_passes else (f", streak {win.streak}", f", streak {state.streak}")
    )
    return (
        f"Scored with {players[win.dealer]} dealing ({win.round.english} round{streak}); the "
        f"corrected record has {players[state.dealer]} dealing ({state.round.english} "
        f"round{now_streak}). Amend this hand to change what it pays.",
    )


def _resettle(setup: TableSetup, state: TableState, win: Win) -> Amounts:
    """What `win` would pay if scored at `state` (agreed tai settled again, a whole hand
    scored again)."""
    return build_win(setup, state, win.as_entered(setup.players)).payments


def correction_target(replayed: Replay, seq: int, expect: int | None = None) -> HistoryEntry:
    """The outcome entry `seq` to void or amend; corrections themselves are not corrected.

    `expect`: the version of the entry the writer saw (`HistoryEntry.version`); when another
    correction came first, the write is refused (`StaleWriteError`) instead of silently
    replacing it. An entry takes at most `MAX_CORRECTIONS` corrections."""
    entry = replayed.entry(seq)
    body = entry.stored.body
    if isinstance(body, Correction):
        raise UnknownEntryError(
            f"entry {seq} is a correction ({body.kind} of entry {body.target}): "
            f"void or amend entry {body.target} itself"
        )
    if expect is not None and expect != entry.version:
        raise StaleWriteError(
            f"entry {seq} is at version {entry.version}, not {expect}: it was corrected "
            "meanwhile; see the history before correcting it again"
        )
    if entry.version >= MAX_CORRECTIONS:
        raise LimitError(
            f"an entry can be corrected at most {MAX_CORRECTIONS} times: entry {seq} has been"
        )
    return entry


def next_outcome(replayed: Replay, record: Record, expect_hand: int | None) -> Outcome:
    """The outcome `record` records as the record's next entry; refused when the table is
    finished or `expect_hand` is not the hand being played."""
    state = replayed.state
    if state.finished:
        stopped = "refusal.table_stopped" if state.stopped else None
        raise TableFinishedError(state.finished_text, key=stopped)
    if expect_hand is not None and expect_hand < state.next_hand:
        raise StaleWriteError(
            f"hand {expect_hand} is already recorded and the next is hand "
            f"{state.next_hand}: see the history before recording it again"
        )
    if expect_hand is not None and expect_hand > state.next_hand:
        raise StaleWriteError(
            f"hand {expect_hand} is not being played yet: the next is hand {state.next_hand}"
        )
    return build_outcome(replayed.setup, state, record)


def amended_outcome(replayed: Replay, target: HistoryEntry, record: Record) -> Outcome:
    """What amending `target` to `record` records, scored at its place in the record. A money
    table is stopped by a stop of its own at the end of the record, never by an amendment
    that would leave hands after it."""
    outcome = build_outcome(replayed.setup, target.before, record)
    if isinstance(outcome, Stop):
        raise UnknownEntryError(
            "a table is stopped by a stop entry after its last hand, not by amending a hand",
            key="refusal.stop_by_amend",
        )
    return outcome


def check_planned(after: Replay) -> None:
    """Refuse a write that would play more hands than the table planned."""
    planned = after.state.planned_hands
    if planned is not None and after.state.hands > planned:
        raise TableFinishedError(f"the table's {planned} hands are all played")
