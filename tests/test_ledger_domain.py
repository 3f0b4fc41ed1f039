"""The ledger's pure domain: rotation per profile, quick and full-hand entry, corrections,
settle-up. No database here (see test_ledger_repository.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.ledger.build import build_outcome
from companion.ledger.entries import Correction, Entry, Payout, Win
from companion.ledger.errors import (
    LedgerError,
    NotPayableWinError,
    UnknownEntryError,
    UnknownPlayerError,
)
from companion.ledger.records import (
    DrawRecord,
    PayoutRecord,
    Record,
    WinnerRecord,
    WinRecord,
    fingerprint,
)
from companion.ledger.replay import Replay, correction_target, replay
from companion.ledger.settle import settle_up, transfer_text
from companion.ledger.state import TableSetup, new_setup
from companion.settlement import format_amount
from companion.tiles import Wind

AT = datetime(2026, 8, 31, 20, 0, tzinfo=UTC)
PLAYERS = ("Ann", "Ben", "Cat", "Dan")
F = Fraction

# docs/contract.md's example: two dragon pungs (2 tai), plus 1 for the seat flower 1f when East.
DRAGONS_HAND: dict[str, Any] = {
    "hand": "123m456p55s",
    "win_tile": "5s",
    "melds": ["pung 777z", "pung 666z"],
    "bonus": "1f",
}


class Table:
    """An in-memory record, built the way the repository builds it."""

    def __init__(
        self,
        profile: str = "sg",
        options: Mapping[str, Any] | None = None,
        hands: int | None = None,
    ) -> None:
        self.setup = new_setup(profile, PLAYERS, options, hands)
        self.events: list[Entry] = []

    @property
    def replay(self) -> Replay:
        return replay(self.setup, self.events)

    def _append(self, body: Any) -> Entry:
        event = Entry(len(self.events) + 1, AT, body)
        self.events.append(event)
        return event

    def record(self, entry: Record) -> Entry:
        return self._append(build_outcome(self.setup, self.replay.state, entry))

    def win(
        self,
        *winners: str,
        tai: int | Sequence[int] = 1,
        by: str | None = None,
        liable: str | None = None,
    ) -> Entry:
        tais = [tai] * len(winners) if isinstance(tai, int) else list(tai)
        entry = WinRecord(
            tuple(WinnerRecord(name, tai=t) for name, t in zip(winners, tais, strict=True)),
            by,
            liable,
        )
        return self.record(entry)

    def draw(self) -> Entry:
        return self.record(DrawRecord())

    def void(self, seq: int, reason: str = "mistake") -> Entry:
        correction_target(self.replay, seq)
        return self._append(Correction(seq, None, reason))

    def amend(self, seq: int, entry: Record, reason: str = "mistake") -> Entry:
        target = correction_target(self.replay, seq)
        outcome = build_outcome(self.setup, target.before, entry)
        return self._append(Correction(seq, outcome, reason))

    def dealer(self) -> str:
        state = self.replay.state
        return PLAYERS[state.dealer]

    def totals(self) -> list[Fraction]:
        return list(self.replay.state.totals)


# ---------------------------------------------------------------------------------------------
# Rotation


@pytest.mark.parametrize("profile", ["sg", "sg-table"])
def test_singapore_dealer_keeps_the_deal_on_a_win_and_a_draw(profile: str) -> None:
    table = Table(profile)
    assert table.dealer() == "Ann"
    table.win("Ann", by="Ben")
    assert table.dealer() == "Ann"
    table.draw()
    assert table.dealer() == "Ann"
    table.win("Ann")
    state = table.replay.state
    assert (PLAYERS[state.dealer], state.hands, state.round) == ("Ann", 3, Wind.EAST)


@pytest.mark.parametrize("profile", ["sg", "sg-table"])
def test_a_non_dealer_win_passes_the_deal_and_the_seat_winds_follow(profile: str) -> None:
    table = Table(profile)
    state = table.replay.state
    assert [state.seat_wind(i).value for i in range(4)] == ["E", "S", "W", "N"]
    table.win("Cat", by="Ann")
    state = table.replay.state
    assert PLAYERS[state.dealer] == "Ben"
    assert [state.seat_wind(i).value for i in range(4)] == ["N", "E", "S", "W"]
    assert state.player_at(Wind.EAST) == 1


def test_the_round_wind_advances_after_the_deal_has_gone_round_all_four() -> None:
    table = Table()
    rounds = []
    for _ in range(16):
        state = table.replay.state
        rounds.append((PLAYERS[state.dealer], state.round.value))
        non_dealer = PLAYERS[(state.dealer + 1) % 4]
        table.win(non_dealer)
    assert rounds[:5] == [("Ann", "E"), ("Ben", "E"), ("Cat", "E"), ("Dan", "E"), ("Ann", "S")]
    assert rounds[8] == ("Ann", "W")
    assert rounds[12] == ("Ann", "N")
    assert table.replay.state.round is Wind.EAST  # after North, East again
    assert table.replay.state.hands == 16


def test_tw_streak_grows_on_a_dealer_win_holds_on_a_draw_and_resets() -> None:
    table = Table("tw")
    table.win("Ann", tai=5)
    assert (table.dealer(), table.replay.state.streak) == ("Ann", 1)
    table.win("Ann", tai=5, by="Cat")
    assert (table.dealer(), table.replay.state.streak) == ("Ann", 2)
    table.draw()
    assert (table.dealer(), table.replay.state.streak) == ("Ann", 2)
    # docs/rules-tw.md: after two dealer wins in a row, a dealer self-draw of 5 collects 5+1+4 each.
    event = table.win("Ann", tai=5)
    assert isinstance(event.body, Win)
    assert event.body.payments == (F(30), F(-10), F(-10), F(-10))
    assert event.body.winners[0].dealer_tai == 5
    assert table.replay.state.streak == 3
    table.win("Ben", tai=2)
    assert (table.dealer(), table.replay.state.streak) == ("Ben", 0)


def test_tw_drawn_hand_repeats_counts_a_draw_as_a_dealer_repeat() -> None:
    table = Table("tw", {"drawn_hand_repeats": True})
    table.win("Ann", tai=5)
    table.win("Ann", tai=5, by="Cat")
    table.draw()
    assert (table.dealer(), table.replay.state.streak) == ("Ann", 3)
    # docs/rules-tw.md: after two dealer wins and a draw, a 5-tai dealer self-draw collects
    # 5 + 1 + 6 from each player.
    event = table.win("Ann", tai=5)
    assert isinstance(event.body, Win)
    assert event.body.winners[0].dealer_tai == 7
    assert event.body.payments == (F(36), F(-12), F(-12), F(-12))
    assert table.replay.state.streak == 4
    # A draw after the deal passed starts the new dealer's streak at 1.
    table.win("Ben", tai=2)
    table.draw()
    assert (table.dealer(), table.replay.state.streak) == ("Ben", 1)


def test_only_tw_has_drawn_hand_repeats() -> None:
    with pytest.raises(CompanionError, match='unknown option "drawn_hand_repeats"'):
        Table("sg", {"drawn_hand_repeats": True})


def test_tw_several_winners_on_one_discard() -> None:
    table = Table("tw")
    table.win("Ann", "Cat", tai=[2, 3], by="Ben")
    assert (table.dealer(), table.replay.state.streak) == ("Ann", 1)  # the dealer won: stays
    event = table.win("Ben", "Dan", tai=[1, 1], by="Cat")
    assert (table.dealer(), table.replay.state.streak) == ("Ben", 0)  # the dealer did not
    assert isinstance(event.body, Win)
    assert event.body.payments == (F(0), F(1), F(-2), F(1))
    assert table.replay.state.hands == 2


def test_several_winners_are_refused_outside_tw_and_need_a_discard() -> None:
    with pytest.raises(LedgerError, match="one winner per hand"):
        Table("sg").win("Ann", "Ben", by="Cat")
    with pytest.raises(LedgerError, match="name the discarder"):
        Table("tw").win("Ann", "Ben")
    with pytest.raises(LedgerError, match="own discard"):
        Table("sg").win("Ann", by="ann")


def test_instant_payouts_are_not_hands_and_do_not_move_the_deal() -> None:
    table = Table("sg-table")
    event = table.record(PayoutRecord("Ben", "bite"))
    assert isinstance(event.body, Payout)
    assert event.body.payments == (F(-2), F(6), F(-2), F(-2))
    start = table.record(PayoutRecord("Ben", "bite", at_start=True))
    assert isinstance(start.body, Payout)
    assert start.body.payments[1] == 12
    state = table.replay.state
    assert (state.hands, state.dealer, state.totals[1]) == (0, 0, F(18))
    assert table.replay.entries[0].hand == 1  # happened during hand 1


def test_instant_payouts_are_an_sg_table_rule() -> None:
    with pytest.raises(CompanionError, match="no instant payouts"):
        Table("sg").record(PayoutRecord("Ben", "bite"))


# ---------------------------------------------------------------------------------------------
# Quick entry


def test_quick_entry_settles_by_the_profile() -> None:
    table = Table("sg")
    discard = table.win("Ben", tai=3, by="Cat")
    assert isinstance(discard.body, Win)
    assert discard.body.payments == (F(-4), F(16), F(-8), F(-4))
    self_drawn = table.win("Ben", tai=3)
    assert isinstance(self_drawn.body, Win)
    assert self_drawn.body.payments == (F(-8), F(24), F(-8), F(-8))
    assert self_drawn.body.self_draw


def test_quick_entry_below_the_minimum_is_not_a_payable_win() -> None:
    table = Table("sg", {"min_tai": 2})
    with pytest.raises(NotPayableWinError, match="under the table's minimum of 2"):
        table.win("Ann", tai=1, by="Ben")
    assert table.events == []


def test_quick_entry_refuses_tai_beyond_the_cap_but_not_a_limit_hand() -> None:
    with pytest.raises(LedgerError, match="0 to 5 tai"):
        Table("sg").win("Ann", tai=6)
    event = Table("sg-table").win("Ann", tai=10)  # a 10-tai limit hand
    assert isinstance(event.body, Win)
    assert event.body.payments[0] == 3 * 2 * 32
    with pytest.raises(LedgerError, match="limit hand's 10"):
        Table("sg-table").win("Ann", tai=7)
    with pytest.raises(LedgerError, match="negative"):
        Table("tw").win("Ann", tai=-1)


def test_pay_for_all_is_recorded_with_the_liable_player() -> None:
    table = Table("sg-table")
    event = table.win("Cat", tai=2, by="Ann", liable="Dan")
    assert isinstance(event.body, Win)
    assert event.body.liable == 3
    assert event.body.payments == (F(0), F(0), F(8), F(-8))  # 2+1+1 shares of 2
    with pytest.raises(CompanionError, match="pay-for-all"):
        Table("sg").win("Cat", tai=2, by="Ann", liable="Dan")


def test_names_are_matched_without_case_and_unknown_names_are_explained() -> None:
    table = Table()
    table.win(" ann ", by="BEN")
    with pytest.raises(UnknownPlayerError) as refused:
        table.win("Eve", by="Ben")
    assert refused.value.message == "no player named Eve at this table: Ann, Ben, Cat, Dan"


# ---------------------------------------------------------------------------------------------
# Full-hand entry


def test_full_hand_entry_takes_seat_round_and_dealer_from_the_table() -> None:
    table = Table("sg")
    # The file's own seat and round are overridden: Ann deals, so she sits East.
    hand = {**DRAGONS_HAND, "seat": "N", "round": "W", "win": "self_draw"}
    event = table.record(WinRecord((WinnerRecord("Ann", hand=hand),), discarder="Ben"))
    assert isinstance(event.body, Win)
    winner = event.body.winners[0]
    assert winner.tai == 3
    assert winner.request is not None
    assert (winner.request["seat"], winner.request["round"], winner.request["win"]) == (
        "E",
        "E",
        "discard",
    )
    assert winner.request["discarder"] == "S"
    assert dict(winner.patterns) == {"Dragon set": 2, "Seat flower or season": 1}
    assert event.body.payments == (F(16), F(-8), F(-4), F(-4))
    # Ben wins the same hand later: South seat, so 1f is not his flower.
    table.win("Cat", by="Ann")  # Cat's win passes the deal to Ben, who sits East...
    table.win("Dan", by="Ann")  # ...and Dan's passes it to Cat: Ben sits North.
    later = table.record(WinRecord((WinnerRecord("Ben", hand=DRAGONS_HAND),), discarder="Ann"))
    assert isinstance(later.body, Win)
    assert later.body.winners[0].tai == 2


def test_full_hand_entry_refuses_what_the_engine_refuses() -> None:
    table = Table("sg", {"min_tai": 4})
    not_a_win = {"hand": "123m456p55s1z", "melds": ["pung 777z"]}
    with pytest.raises(NotPayableWinError, match="Ann's hand is not a win"):
        table.record(WinRecord((WinnerRecord("Ann", hand=not_a_win),), discarder="Ben"))
    with pytest.raises(NotPayableWinError, match="under the table's minimum"):
        table.record(WinRecord((WinnerRecord("Ann", hand=DRAGONS_HAND),), discarder="Ben"))
    with pytest.raises(CompanionError, match="unknown field 'colour'"):
        table.record(WinRecord((WinnerRecord("Ann", hand={"colour": 1}),), discarder="Ben"))
    with pytest.raises(LedgerError, match="one of the two"):
        table.record(WinRecord((WinnerRecord("Ann"),), discarder="Ben"))
    assert table.events == []


def test_full_hand_entry_in_tw_carries_the_streak() -> None:
    table = Table("tw")
    table.win("Ann", tai=1)
    hand = {"hand": "123m456m789m123p456p11s", "win_tile": "1s"}
    event = table.record(WinRecord((WinnerRecord("Ann", hand=hand),), discarder="Ben"))
    assert isinstance(event.body, Win)
    winner = event.body.winners[0]
    assert winner.request is not None and winner.request["dealer_streak"] == 1
    assert winner.dealer_tai == 3
    assert event.body.payments[0] == winner.tai + 3


# ---------------------------------------------------------------------------------------------
# Corrections


def test_a_void_keeps_the_original_and_rotation_follows_the_corrected_record() -> None:
    table = Table("sg")
    table.win("Ben", tai=2, by="Ann")  # 1: passes the deal to Ben
    table.win("Ben", tai=1)  # 2: Ben keeps it
    assert table.dealer() == "Ben"
    table.void(1, "Ben's win was Ann's")
    replayed = table.replay
    assert [entry.status for entry in replayed.entries] == ["voided", "recorded", "void"]
    assert replayed.entries[0].corrected_by == 3
    # Ben's remaining win was recorded with Ben dealing; now Ann deals it, and it passes the
    # deal to Ben. In sg a 1-tai self-draw pays the same whoever deals: no note.
    assert replayed.entries[1].before.dealer == 0
    assert PLAYERS[replayed.state.dealer] == "Ben"
    assert replayed.entries[1].warnings == ()
    assert replayed.state.hands == 1
    assert replayed.state.totals == (F(-2), F(6), F(-2), F(-2))


def test_an_amendment_counts_in_place_of_the_original() -> None:
    table = Table("sg")
    table.win("Ann", tai=1, by="Ben")  # 1
    table.draw()  # 2
    table.amend(1, WinRecord((WinnerRecord("Cat", tai=1),), "Ben"), "it was Cat")  # 3
    replayed = table.replay
    assert replayed.entries[0].status == "amended"
    effective = replayed.entries[0].effective
    assert isinstance(effective, Win) and effective.winners[0].player == 2
    assert PLAYERS[replayed.state.dealer] == "Ben"  # Cat's win passed the deal
    assert replayed.entries[1].before.dealer == 1
    # A later correction of the same event supersedes the earlier; a void wins over all.
    table.amend(1, DrawRecord(), "no, a draw")
    assert table.totals() == [0, 0, 0, 0]
    table.void(1)
    assert table.replay.state.hands == 1
    assert table.replay.entries[0].corrected_by == 5
    with pytest.raises(UnknownEntryError, match="entry 3 is a correction"):
        table.void(3)
    with pytest.raises(UnknownEntryError, match="no entry 9"):
        table.void(9)


def test_a_correction_that_changes_a_later_hands_dealer_tai_is_flagged() -> None:
    table = Table("tw")
    table.win("Ben", tai=2, by="Cat")  # 1: Ben takes the deal
    table.win("Ben", tai=2, by="Cat")  # 2: Ben wins as dealer: 2 + 1 dealer tai
    table.void(1)
    notes = table.replay.entries[1].warnings
    assert len(notes) == 1
    assert notes[0].startswith("Scored with Ben dealing (East round, streak 0); ")
    assert "Ann dealing" in notes[0]
    # The stored payments stand until the hand is amended.
    assert table.replay.state.totals == (F(0), F(3), F(-3), F(0))
    table.amend(2, WinRecord((WinnerRecord("Ben", tai=2),), "Cat"))
    assert table.replay.entries[1].warnings == ()
    assert table.replay.state.totals == (F(0), F(2), F(-2), F(0))


# ---------------------------------------------------------------------------------------------
# Settle-up


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([0, 0, 0, 0], []),
        ([6, -6, 0, 0], ["Ben pays Ann 6"]),
        ([16, -8, -4, -4], ["Ben pays Ann 8", "Cat pays Ann 4", "Dan pays Ann 4"]),
        ([5, 3, -5, -3], ["Cat pays Ann 5", "Dan pays Ben 3"]),  # two pairs: 2, not 3
        ([4, 2, -1, -5], ["Cat pays Ben 1", "Dan pays Ann 4", "Dan pays Ben 1"]),
        ([F(1, 2), F(-1, 2), 0, 0], ["Ben pays Ann 0.5"]),
        ([F(1, 3), F(-1, 3), 0, 0], ["Ben pays Ann 1/3"]),
    ],
)
def test_settle_up_uses_the_fewest_transfers(totals: list[Any], expected: list[str]) -> None:
    transfers = settle_up([F(t) for t in totals])
    assert [transfer_text(PLAYERS, t) for t in transfers] == expected


def test_settle_up_refuses_totals_that_do_not_balance() -> None:
    with pytest.raises(LedgerError, match="do not sum to zero"):
        settle_up([F(1), F(0), F(0), F(0)])


@given(st.lists(st.integers(-50, 50), min_size=3, max_size=3))
def test_settle_up_squares_any_table_in_at_most_three_transfers(three: list[int]) -> None:
    totals = [F(v) for v in [*three, -sum(three)]]
    transfers = settle_up(totals)
    balance = list(totals)
    for transfer in transfers:
        assert transfer.amount > 0 and transfer.payer != transfer.payee
        balance[transfer.payer] += transfer.amount
        balance[transfer.payee] -= transfer.amount
    assert balance == [0, 0, 0, 0]
    open_players = sum(1 for t in totals if t)
    pairs = any(totals[i] + totals[j] == 0 for i in range(4) for j in range(i + 1, 4) if totals[i])
    if open_players == 4 and pairs:
        assert len(transfers) == 2
    else:
        assert len(transfers) == max(open_players - 1, 0)


@pytest.mark.parametrize(
    ("amount", "text"),
    [(F(6), "6"), (F(-6), "-6"), (F(1, 2), "0.5"), (F(-3, 4), "-0.75"), (F(2, 3), "2/3")],
)
def test_amounts_are_shown_exactly(amount: Fraction, text: str) -> None:
    assert format_amount(amount) == text


# ---------------------------------------------------------------------------------------------
# Setup


@pytest.mark.parametrize(
    ("players", "options", "hands", "message"),
    [
        (["Ann", "Ben", "Cat"], None, None, "four players"),
        (["Ann", "Ben", "Cat", "ann"], None, None, "Ann and ann are the same"),
        (["Ann", "Ben", "Cat", " "], None, None, "cannot be empty"),
        (PLAYERS, {"min_tai": 9}, None, "min_tai"),
        (PLAYERS, {"colour": 1}, None, "unknown option"),
        (PLAYERS, None, 0, "at least 1"),
    ],
)
def test_a_table_setup_is_checked(
    players: Sequence[str], options: dict[str, Any] | None, hands: int | None, message: str
) -> None:
    with pytest.raises(CompanionError, match=message):
        new_setup("sg", players, options, hands)


def test_a_finished_table_knows_it() -> None:
    table = Table("sg", hands=2)
    table.draw()
    assert not table.replay.state.finished
    table.win("Ben", by="Ann")
    state = table.replay.state
    assert state.finished and state.to_json()["next_hand"] is None


def test_setup_round_trips_to_json() -> None:
    setup = new_setup("tw", PLAYERS, {"per_tai": 2}, 16)
    assert TableSetup(**setup.to_json() | {"players": tuple(PLAYERS)}) == setup


def test_an_entrys_fingerprint_is_what_it_was() -> None:
    """Keys already stored compare their entry's fingerprint: the digest of an entry stays."""
    win = WinRecord(
        (WinnerRecord(" Ann ", tai=3), WinnerRecord("Cat", hand={"hand": "123m"})), "BEN"
    )
    payout = PayoutRecord("Cat", "Own Flowers", True)
    assert [fingerprint({"op": "record", **entry.to_json()}) for entry in (win, payout)] == [
        "0a9e5bfb65bf20bd760046f5a4eda3a5da05d6f9ddae4e0e43b26da67f0c393b",
        "bd0ad7780a637fd0d2d0a28e7018710388e914ee101a4818db15995541103f2e",
    ]


@dataclass(frozen=True)
class HonbaWinInput(WinRecord):
    honba: int = 0


def test_a_new_field_of_a_win_is_in_its_fingerprint() -> None:
    """A key sent again with another value of a new field is another entry (409), not the
    same one: the fingerprint takes every field without an edit."""
    once = HonbaWinInput((WinnerRecord("Ann", tai=1),), "Ben", honba=1)
    again = HonbaWinInput((WinnerRecord("Ann", tai=1),), "Ben", honba=2)
    assert once.to_json()["honba"] == 1
    assert fingerprint(once.to_json()) != fingerprint(again.to_json())
