"""An MCR table's game (docs/rules-mcr.md, *The table*): each hand worth 8 + its fan, the deal
passing every hand, 16 hands and the end, table points 4, 2, 1, 0 shared on ties; a whole game
worked out by hand and replayed from the record, and the refusals."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest

from companion.errors import InvalidRequestError
from companion.ledger.build import build_outcome
from companion.ledger.entries import Correction, Entry, outcome_text
from companion.ledger.errors import LedgerError, NotPayableWinError, TableFinishedError
from companion.ledger.records import DrawRecord, Record, WinnerRecord, WinRecord
from companion.ledger.replay import Replay, correction_target, next_outcome, replay
from companion.ledger.state import new_setup
from companion.rules import get_profile
from companion.rules.mcr.game import GAME_HANDS, check_fan, table_points

AT = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
NAMES = ("Ann", "Ben", "Cy", "Dee")
A, B, C, D = NAMES


def win(
    winner: str, fan: int, discarder: str | None = None, flowers: int | None = None
) -> WinRecord:
    return WinRecord((WinnerRecord(winner, tai=fan, flowers=flowers),), discarder)


def hand(winner: str, tiles: str, discarder: str | None = None) -> WinRecord:
    return WinRecord((WinnerRecord(winner, hand={"hand": tiles}),), discarder)


DRAW = DrawRecord()


class Table:
    """An in-memory record, built the way the repository builds it."""

    def __init__(self, **options: Any) -> None:
        self.setup = new_setup("mcr", NAMES, options)
        self.events: list[Entry] = []

    @property
    def replay(self) -> Replay:
        return replay(self.setup, self.events)

    def record(self, entry: Record) -> Entry:
        event = Entry(len(self.events) + 1, AT, next_outcome(self.replay, entry, None))
        self.events.append(event)
        return event

    def play(self, entries: Sequence[Record]) -> Table:
        for entry in entries:
            self.record(entry)
        return self

    def void(self, seq: int) -> None:
        correction_target(self.replay, seq)
        self.events.append(Entry(len(self.events) + 1, AT, Correction(seq, None, "mistake")))

    def amend(self, seq: int, entry: Record) -> None:
        target = correction_target(self.replay, seq)
        outcome = build_outcome(self.setup, target.before, entry)
        self.events.append(Entry(len(self.events) + 1, AT, Correction(seq, outcome, "mistake")))

    def scores(self) -> list[int]:
        return [int(total) for total in self.replay.state.totals]


# A game worked out by hand, with flowers played. Each hand is worth 8 + fan: a self-draw
# takes it from each of the three others; a discard takes it from the discarder and 8 from
# each of the other two. The deal passes every hand, so hand n is dealt by player (n - 1) % 4.
GAME: list[tuple[Record, tuple[int, int, int, int]]] = [
    # East round: Ann, Ben, Cy, Dee deal.
    (win(A, 12, B), (36, -20, -8, -8)),  # 20 from Ben
    (win(B, 8), (-16, 48, -16, -16)),  # the dealer's self-draw: the deal passes all the same
    (DRAW, (0, 0, 0, 0)),  # a drawn hand pays nothing and passes the deal
    (win(C, 10, D, flowers=2), (-8, -8, 36, -20)),  # 10 fan + 2 flowers: 20 from Dee
    # South round.
    (win(D, 24), (-32, -32, -32, 96)),
    (win(A, 8, C), (32, -8, -16, -8)),
    (DRAW, (0, 0, 0, 0)),
    (win(B, 16, A), (-24, 40, -8, -8)),
    # West round.
    (win(C, 8, flowers=1), (-17, -17, 51, -17)),  # 8 fan + 1 flower, self-drawn: 17 each
    (DRAW, (0, 0, 0, 0)),
    (win(D, 9, B), (-8, -17, -8, 33)),
    (win(A, 32, D), (56, -8, -8, -40)),
    # North round.
    (win(B, 12), (-20, 60, -20, -20)),
    (DRAW, (0, 0, 0, 0)),
    (win(C, 8, A), (-16, -8, 32, -8)),
    (win(D, 11, C), (-8, -8, -19, 35)),
]


def test_a_whole_game_worked_out_by_hand() -> None:
    table = Table(flowers=True).play([entry for entry, _ in GAME])
    entries = table.replay.entries
    assert [entry.amounts for entry in entries] == [
        tuple(Fraction(amount) for amount in amounts) for _, amounts in GAME
    ]
    assert table.scores() == [-25, 22, -16, 19]
    # The deal passed every hand, win or draw: hand n in the wind round of (n - 1) // 4.
    assert [(entry.before.round.value, NAMES[entry.before.dealer]) for entry in entries] == [
        (wind, dealer) for wind in "ESWN" for dealer in NAMES
    ]
    assert [entry.hand for entry in entries] == list(range(1, 17))
    state = table.replay.state
    assert (state.finished, state.hands, state.streak) == (True, GAME_HANDS, 0)
    standings = state.to_json()
    assert standings["finished"] is True
    assert [
        (row["name"], row["score"], row["table_points"], row["place"])
        for row in standings["players"]
    ] == [(A, -25, "0", 4), (B, 22, "4", 1), (C, -16, "1", 3), (D, 19, "2", 2)]
    assert outcome_text(NAMES, entries[3].effective) == (  # type: ignore[arg-type]
        "Cy wins 12 fan (agreed, 2 of them flowers) on Dee's discard"
    )


def test_the_seat_winds_follow_the_deal() -> None:
    state = Table().play([win(A, 8, B), DRAW, win(C, 8)]).replay.state
    # Hand 4: Dee deals and sits East; Ann, after Dee, sits South.
    assert [state.seat_wind(player).value for player in range(4)] == ["S", "W", "N", "E"]
    assert state.to_json()["deals_in_round"] == 4


def test_after_the_sixteenth_hand_the_game_is_over() -> None:
    table = Table().play([DRAW] * 16)
    with pytest.raises(TableFinishedError) as refused:
        table.record(win(A, 8, B))
    assert refused.value.message == (
        "the game is over (its 16 hands are all played): no hand is played after it"
    )
    # Everyone at 0: four tied for first share 4 + 2 + 1 + 0.
    assert [row["table_points"] for row in table.replay.state.to_json()["players"]] == ["1.75"] * 4


@pytest.mark.parametrize(
    ("scores", "points"),
    [
        ((22, 19, -16, -25), ("4", "2", "1", "0")),
        ((10, 10, -5, -15), ("3", "3", "1", "0")),  # two tied first: (4 + 2) / 2 each
        ((30, -10, -10, -10), ("4", "1", "1", "1")),  # three tied second: (2 + 1 + 0) / 3
        ((10, 10, 10, -30), ("7/3", "7/3", "7/3", "0")),  # three tied first: 7/3, exactly
        ((20, 0, 0, -20), ("4", "3/2", "3/2", "0")),  # a shared 2 + 1
        ((-5, 5, -5, 5), ("1/2", "3", "1/2", "3")),
        ((0, 0, 0, 0), ("7/4",) * 4),
    ],
)
def test_table_points_by_place_shared_on_ties(
    scores: tuple[int, ...], points: tuple[str, ...]
) -> None:
    found = table_points(scores)
    assert tuple(str(value) for value in found) == points
    assert sum(found) == 7


def test_ties_through_the_ledger() -> None:
    # Ann's self-draw, then draws: the three others tie for second at -16.
    table = Table().play([win(A, 8), *[DRAW] * 15])
    rows = table.replay.state.to_json()["players"]
    assert [(row["score"], row["table_points"], row["place"]) for row in rows] == [
        (48, "4", 1),
        (-16, "1", 2),
        (-16, "1", 2),
        (-16, "1", 2),
    ]
    # Before the end the standings give what the present order would: Cy and Dee tie third.
    playing = Table().play([win(A, 8, B)]).replay.state.to_json()
    assert playing["finished"] is False
    assert [row["table_points"] for row in playing["players"]] == ["4", "0", "1.5", "1.5"]


def test_a_whole_hand_is_scored_by_the_engine_with_the_tables_winds() -> None:
    table = Table().play([DRAW])
    # Hand 2: Ben deals (East), Cy sits South; a mixed straight on Dee's discard: 13 fan.
    event = table.record(hand(C, "123m456p789s234s55m", D))
    outcome = event.body
    assert [int(amount) for amount in table.replay.entries[-1].amounts] == [-8, -8, 37, -21]
    request = outcome.winners[0].request  # type: ignore[union-attr]
    assert request == {
        "hand": "123m456p789s234s55m",
        "profile": "mcr",
        "win": "discard",
        "seat": "S",
        "round": "E",
        "discarder": "W",
        "options": {},
    }
    with pytest.raises(NotPayableWinError) as refused:
        table.record(hand(D, "123m345p567s789s22p", A))
    assert refused.value.message == (
        "Dee's hand is under the table's minimum (4 fan is under the table's minimum of 8): a "
        "hand under the minimum pays nothing and is not recorded as a win"
    )


def test_a_void_or_an_amendment_moves_every_hand_after_it() -> None:
    table = Table(flowers=True).play([entry for entry, _ in GAME])
    table.void(2)  # Ben's self-draw in hand 2
    state = table.replay.state
    assert (state.finished, state.hands, state.next_hand) == (False, 15, 16)
    assert [int(total) for total in state.totals] == [-25 + 16, 22 - 48, -16 + 16, 19 + 16]
    # Every hand after it moved one deal back: the draw that was hand 3 is hand 2, Ben dealing.
    third = table.replay.entries[2]
    assert (third.hand, NAMES[third.before.dealer]) == (2, B)
    assert (state.round.value, NAMES[state.dealer]) == ("N", D)
    table.record(DRAW)
    assert table.replay.state.finished
    # An amendment counts at its own place: hand 1 was Ann's self-draw, not Ben's discard.
    table.amend(1, win(A, 12))
    assert [int(total) for total in table.replay.state.totals] == [
        -9 + 24,
        -26 + 20 - 20,
        0 - 20 + 8,
        35 - 20 + 8,
    ]


@pytest.mark.parametrize(
    ("entry", "options", "error", "message"),
    [
        (
            win(A, 6, B),
            {},
            LedgerError,
            "a win needs at least 8 fan, flowers not counted; 6 were entered",
        ),
        (
            win(A, 7, B, flowers=3),
            {"flowers": True},
            LedgerError,
            "a win needs at least 8 fan, flowers not counted; 7 were entered",
        ),
        (
            win(A, 8, B, flowers=1),
            {},
            LedgerError,
            "this mcr table plays no flowers (option flowers is off)",
        ),
        (
            win(A, 8, B, flowers=9),
            {"flowers": True},
            LedgerError,
            "a hand holds 0 to 8 flowers and seasons, not 9",
        ),
        (win(A, -1, B), {}, LedgerError, "fan cannot be negative"),
        (win(A, 1001), {}, LedgerError, "fan can be at most 1,000 for a mcr hand, not 1001"),
        (win(A, 8, A), {}, LedgerError, "Ann cannot win on their own discard"),
        (
            WinRecord((WinnerRecord(A, tai=8), WinnerRecord(B, tai=8)), C),
            {},
            LedgerError,
            "the mcr profile has one winner per hand",
        ),
        (
            DrawRecord(tenpai=(A,)),
            {},
            LedgerError,
            "a mcr table's drawn hand has nothing to say: tenpai, riichi and abortive draws "
            "are a points game's (riichi)",
        ),
    ],
)
def test_refusals(
    entry: Record, options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as refused:
        Table(**options).record(entry)
    assert refused.value.message == message  # type: ignore[attr-defined]


def test_an_mcr_table_plans_no_other_length() -> None:
    assert new_setup("mcr", NAMES, planned_hands=16).planned_hands == 16
    for plan in ({"planned_hands": 8}, {"planned_rounds": 4}):
        with pytest.raises(LedgerError) as refused:
            new_setup("mcr", NAMES, **plan)  # type: ignore[arg-type]
        assert refused.value.message == (
            "the mcr game is 16 hands, four rounds of four: a table plans no other length"
        )


def test_the_minimum_leaves_flowers_out() -> None:
    check_fan(8)
    with pytest.raises(InvalidRequestError) as refused:
        check_fan(7)
    assert (refused.value.key, refused.value.params) == (
        "refusal.mcr_minimum",
        {"minimum": 8, "count": 7},
    )
    profile = get_profile("mcr")
    assert profile.agreed_flowers(profile.parse_options({"flowers": True})) is True
    assert profile.agreed_flowers(profile.parse_options({})) is False


def test_a_whole_hand_a_correction_moved_to_another_seat_keeps_its_payments_with_a_note() -> None:
    table = Table().play([win(A, 8, B)])
    # Hand 2: Ben deals, Cy sits South: a pung of South is her seat wind, 13 fan in all.
    table.record(hand(C, "222z123m456p789s55m", D))
    assert table.replay.entries[1].amounts[2] == 8 + 8 + 8 + 13
    table.void(1)
    moved = table.replay.entries[1]
    # Now hand 1, Ann dealing, Cy sits West: the pung is no seat wind, the hand 12 fan; what
    # was recorded stands until it is amended, and the history says so.
    assert (moved.hand, moved.amounts[2]) == (1, 37)
    assert moved.warnings == (
        "Scored with Ben dealing (East round); the corrected record has Ann dealing (East "
        "round). Amend this hand to change what it pays.",
    )
    table.amend(2, hand(C, "222z123m456p789s55m", D))
    assert table.replay.entries[1].amounts[2] == 8 + 8 + 8 + 12


@pytest.mark.parametrize(
    ("tiles", "win", "discarder"),
    [
        ("123m456p789s234s55m", "discard", "W"),
        ("234m234p234s678s55p", "self_draw", None),
        ("11z22z33z44z55z66z77z", "discard", "E"),
    ],
)
def test_a_quick_entry_pays_what_the_engine_pays_for_the_same_fan(
    tiles: str, win: str, discarder: str | None
) -> None:
    """The declared settlement of an agreed count (`Profile.settle`) is the engine's own."""
    from companion.context import WinContext, WinType
    from companion.scoring import score
    from companion.tiles import Wind

    request = {"profile": "mcr", "hand": tiles, "win": win, "seat": "S", "round": "E"}
    if discarder is not None:
        request["discarder"] = discarder
    scored = score(request)
    profile = get_profile("mcr")
    options = profile.parse_options({})
    context = WinContext(
        win=WinType(win),
        seat=Wind.SOUTH,
        discarder=None if discarder is None else Wind.parse(discarder),
    )
    paid = profile.settle(profile.agreed_value(scored.tai, options), context, options)
    assert paid == scored.payments
