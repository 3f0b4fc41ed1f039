"""The riichi table over a whole game (companion.rules.riichi.game): whole games of every preset
worked out by hand from the rules (docs/rules-riichi.md, *The table*), each hand's figures in
the comments, and every refusal with its message."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from companion.errors import InvalidRequestError
from companion.rules.riichi import PRESETS, read_options, score_riichi
from companion.rules.riichi.game import (
    Game,
    GameEnd,
    GameState,
    HandLabel,
    Standing,
    advance,
    one_decimal,
    replay,
    start,
)
from companion.rules.riichi.outcomes import (
    AbortiveDraw,
    AbortiveKind,
    Chombo,
    ExhaustiveDraw,
    GameError,
    GameOverError,
    GameSetup,
    Outcome,
    Stop,
    Win,
    Winner,
    outcome_json,
    read_outcome,
)
from companion.rules.riichi.points import value_of
from companion.tiles import Wind

A, B, C, D = 0, 1, 2, 3
NAMES = ("Aki", "Bo", "Chen", "Dana")


def game(preset: str, outcomes: Sequence[Outcome], **options: Any) -> Game:
    return replay(GameSetup.create(NAMES, {"preset": preset, **options}), outcomes)


def labels(played: Game) -> list[str | None]:
    """The hand each outcome was played in, then the hand to play next (None when over)."""
    found = [None if step.hand is None else step.hand.label for step in played.steps]
    after = played.state.hand
    return [*found, None if after is None else after.label]


def results(state: GameState) -> list[tuple[str, int, str]]:
    return [(standing.name, standing.place, standing.shown) for standing in state.results]


def ron(winner: int, discarder: int, han: int = 0, fu: int | None = None, **more: Any) -> Win:
    riichi = more.pop("riichi", ())
    return Win((Winner(winner, han=han, fu=fu, **more),), discarder, riichi)


def tsumo(winner: int, han: int = 0, fu: int | None = None, **more: Any) -> Win:
    riichi = more.pop("riichi", ())
    return Win((Winner(winner, han=han, fu=fu, **more),), None, riichi)


BAIMAN_OFF_BO = Win((Winner(A, limit="baiman"),), B)
"""Dealer Aki ron off Bo, a baiman: 24,000, Bo down to 1,000."""


def none_tenpai(count: int) -> list[Outcome]:
    return [ExhaustiveDraw() for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# Whole games, one a preset


def test_a_tenhou_hanchan_worked_out_by_hand() -> None:
    outcomes: list[Outcome] = [
        # East 1: Aki riichi (24,000, 1,000 down); Aki and Bo tenpai: 1,500 each way.
        ExhaustiveDraw(tenpai=(A, B), riichi=(A,)),
        # East 1, 1 honba: Dana alone tenpai: 3,000 from the three; the dealer noten passes.
        ExhaustiveDraw(tenpai=(D,)),
        # East 2, 2 honba: Chen riichi; dealer Bo ron off Dana, 4 han 30 fu: 11,600 + 600,
        # and the 2,000 on the table.
        ron(B, D, 4, 30, riichi=(C,)),
        # East 2, 3 honba: Chen self-draws 2 han 40 fu: 700-1,300, each with 300 of honba.
        tsumo(C, 2, 40),
        # East 3: Dana ron off Aki, a mangan.
        Win((Winner(D, limit="mangan"),), A),
        # East 4: dealer Dana self-draws a haneman: 6,000 all.
        tsumo(D, 6),
        # East 4, 1 honba: Aki ron off Dana, 1 han 30 fu: 1,000 + 300.
        ron(A, D, 1, 30),
        # South 1: nobody tenpai: no payments, the deal passes, a honba more.
        ExhaustiveDraw(),
        # South 2, 1 honba: all four tenpai; Bo and Dana riichi (2,000 on the table).
        ExhaustiveDraw(tenpai=(A, B, C, D), riichi=(B, D)),
        # South 2, 2 honba: Chen ron off Aki, 3 han 40 fu: 5,200 + 600, and the 2,000.
        ron(C, A, 3, 40),
        # South 3: Bo self-draws 3 han 20 fu: 700-1,300 (dealer Chen pays 1,300).
        tsumo(B, 3, 20),
        # South 4: Aki alone tenpai; dealer Dana noten: the game ends.
        ExhaustiveDraw(tenpai=(A,)),
    ]
    played = game("tenhou", outcomes)
    assert [step.after.points for step in played.steps] == [
        (25_500, 26_500, 23_500, 23_500),
        (24_500, 25_500, 22_500, 26_500),
        (24_500, 39_700, 21_500, 14_300),
        (23_500, 38_100, 25_100, 13_300),
        (15_500, 38_100, 25_100, 21_300),
        (9_500, 32_100, 19_100, 39_300),
        (10_800, 32_100, 19_100, 38_000),
        (10_800, 32_100, 19_100, 38_000),
        (10_800, 31_100, 19_100, 37_000),
        (5_000, 31_100, 26_900, 37_000),
        (4_300, 33_800, 25_600, 36_300),
        (7_300, 32_800, 24_600, 35_300),
    ]
    assert [step.after.deposits for step in played.steps] == [
        1000, 1000, 0, 0, 0, 0, 0, 0, 2000, 0, 0, 0,
    ]  # fmt: skip
    assert labels(played) == [
        "East 1, 0 honba",
        "East 1, 1 honba",
        "East 2, 2 honba",
        "East 2, 3 honba",
        "East 3, 0 honba",
        "East 4, 0 honba",
        "East 4, 1 honba",
        "South 1, 0 honba",
        "South 2, 1 honba",
        "South 2, 2 honba",
        "South 3, 0 honba",
        "South 4, 0 honba",
        None,
    ]
    assert [step.calls for step in played.steps if step.calls] == [
        ("11600",),
        ("700-1300",),
        ("8000",),
        ("6000 all",),
        ("1000",),
        ("5200",),
        ("700-1300",),
    ]
    assert played.steps[2].changes == (0, 14_200, -1_000, -12_200)
    state = played.state
    assert (state.ended, state.hands, state.finished) == (GameEnd.LAST_HAND, 12, True)
    # Dana 35,300: 5.3 + 20 uma + 20 oka; Bo 2.8 + 10; Chen -5.4 - 10; Aki -22.7 - 20.
    assert results(state) == [
        ("Dana", 1, "45.3"),
        ("Bo", 2, "12.8"),
        ("Chen", 3, "-15.4"),
        ("Aki", 4, "-42.7"),
    ]
    first = state.results[0]
    assert first == Standing(
        D, "Dana", 1, Fraction(35_300), Fraction(20), Fraction(20), Fraction(0), Fraction(453, 10)
    )
    assert sum(standing.result for standing in state.results) == 0


def test_an_mleague_hanchan_head_bump_liability_nagashi_and_no_bust() -> None:
    outcomes: list[Outcome] = [
        # East 1: Dana's chombo, a mangan self-draw reversed: 4,000 to the dealer, 2,000 each.
        Chombo(D),
        # East 1 again: Chen and Bo both claim Aki's discard; the head bump keeps Bo, first in
        # turn: 3 han 40 fu, 5,200.
        Win((Winner(C, limit="mangan"), Winner(B, han=3, fu=40)), A),
        # East 2: Chen self-draws a daisangen Dana let be completed: Dana pays the 32,000.
        Win((Winner(C, yakuman=1, liable=D),)),
        # East 3: Aki's nagashi mangan (2,000-4,000), nobody tenpai: the deal passes.
        ExhaustiveDraw(nagashi=(A,)),
        # East 4, 1 honba: dealer Dana ron off Chen, 4 han 30 fu, a mangan with kiriage:
        # 12,000 + 300.
        ron(D, C, 4, 30),
        # East 4, 2 honba: all tenpai.
        ExhaustiveDraw(tenpai=(A, B, C, D)),
        # East 4, 3 honba: Bo ron off Aki, 1 han 30 fu: 1,000 + 900.
        ron(B, A, 1, 30),
        *none_tenpai(3),
        # South 4, 3 honba: Aki riichi and alone tenpai; the dealer noten ends the game with
        # 1,000 on the table.
        ExhaustiveDraw(tenpai=(A,), riichi=(A,)),
    ]
    played = game("mleague", outcomes)
    assert [step.after.points for step in played.steps] == [
        (29_000, 27_000, 27_000, 17_000),
        (23_800, 32_200, 27_000, 17_000),
        (23_800, 32_200, 59_000, -15_000),
        (31_800, 30_200, 55_000, -17_000),
        (31_800, 30_200, 42_700, -4_700),
        (31_800, 30_200, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (29_900, 32_100, 42_700, -4_700),
        (31_900, 31_100, 41_700, -5_700),
    ]
    assert played.steps[1].winners == (B,) and played.steps[1].calls == ("5200",)
    assert labels(played) == [
        "East 1, 0 honba",
        "East 1, 0 honba",
        "East 2, 0 honba",
        "East 3, 0 honba",
        "East 4, 1 honba",
        "East 4, 2 honba",
        "East 4, 3 honba",
        "South 1, 0 honba",
        "South 2, 1 honba",
        "South 3, 2 honba",
        "South 4, 3 honba",
        None,
    ]
    state = played.state
    assert (state.ended, state.hands, state.deposits) == (GameEnd.LAST_HAND, 10, 1000)
    # The 1,000 left go to Chen, first: 42,700: 12.7 + 30 + 20; Aki 1.9 + 10; Bo 1.1 - 10;
    # Dana -35.7 - 30.
    assert results(state) == [
        ("Chen", 1, "62.7"),
        ("Aki", 2, "11.9"),
        ("Bo", 3, "-8.9"),
        ("Dana", 4, "-65.7"),
    ]
    assert state.results[0].points == 42_700


def test_an_ema2016_hanchan_ties_share_and_chombo_at_the_end() -> None:
    outcomes: list[Outcome] = [
        # East 1: Aki and Bo tenpai, 1,500 each way; the dealer keeps.
        ExhaustiveDraw(tenpai=(A, B)),
        # East 1, 1 honba: Chen's chombo costs 20,000 at the end; nothing changes now.
        Chombo(C),
        *none_tenpai(7),
        # South 4, 8 honba: Aki and Bo riichi and tenpai, 1,500 each way; the dealer noten.
        ExhaustiveDraw(tenpai=(A, B), riichi=(A, B)),
    ]
    played = game("ema2016", outcomes)
    assert labels(played)[:4] == [
        "East 1, 0 honba",
        "East 1, 1 honba",
        "East 1, 1 honba",
        "East 2, 2 honba",
    ]
    assert labels(played)[-2:] == ["South 4, 8 honba", None]
    state = played.state
    assert (state.points, state.deposits, state.chombos) == (
        (32_000, 32_000, 27_000, 27_000),
        2_000,
        (0, 0, 1, 0),
    )
    # Aki and Bo share first and second (uma (15 + 5) / 2) and the 2,000 left: 33,000 each,
    # 3 + 10. Chen and Dana share third and fourth: -3 - 10; Chen's chombo 20 more.
    assert results(state) == [
        ("Aki", 1, "13.0"),
        ("Bo", 1, "13.0"),
        ("Chen", 3, "-33.0"),
        ("Dana", 3, "-13.0"),
    ]
    chen = state.results[2]
    assert (chen.points, chen.uma, chen.oka, chen.penalty) == (27_000, -10, 0, 20)
    assert sum(standing.result + standing.penalty for standing in state.results) == 0


def test_an_ema2025_hanchan_three_winners_kiriage_and_deposits_over_draws() -> None:
    outcomes: list[Outcome] = [
        # East 1: Dana riichi; Aki, Chen and Dana all win on Bo's discard (no head bump).
        # Chen, first in turn after Bo, takes the 1,000: 1 han 30 fu, 1,000. Dana 2 han 30 fu,
        # 2,000. Dealer Aki 4 han 30 fu: a mangan with kiriage, 12,000.
        Win(
            (Winner(A, han=4, fu=30), Winner(C, han=1, fu=30), Winner(D, han=2, fu=30)),
            B,
            (D,),
        ),
        # East 1, 1 honba: the dealer won, so keeps: ron off Chen, 4 han 30 fu: 12,000 + 300.
        ron(A, C, 4, 30),
        # East 1, 2 honba: Bo riichi and alone tenpai; the deal passes.
        ExhaustiveDraw(tenpai=(B,), riichi=(B,)),
        # East 2, 3 honba: nobody tenpai; the 1,000 stays.
        ExhaustiveDraw(),
        # East 3, 4 honba: Dana ron off Aki, 3 han 30 fu: 3,900 + 1,200, and the 1,000.
        ron(D, A, 3, 30),
        *none_tenpai(5),
    ]
    played = game("ema2025", outcomes)
    assert played.steps[0].winners == (C, D, A)
    assert played.steps[0].calls == ("1000", "2000", "12000")
    assert [step.after.points for step in played.steps[:5]] == [
        (42_000, 15_000, 32_000, 31_000),
        (54_300, 15_000, 19_700, 31_000),
        (53_300, 17_000, 18_700, 30_000),
        (53_300, 17_000, 18_700, 30_000),
        (48_200, 17_000, 18_700, 36_100),
    ]
    assert [step.after.deposits for step in played.steps[:5]] == [0, 0, 1000, 1000, 0]
    assert labels(played)[:6] == [
        "East 1, 0 honba",
        "East 1, 1 honba",
        "East 1, 2 honba",
        "East 2, 3 honba",
        "East 3, 4 honba",
        "East 4, 0 honba",
    ]
    state = played.state
    assert state.ended is GameEnd.LAST_HAND
    # Aki 18.2 + 15; Dana 6.1 + 5; Chen -11.3 - 5; Bo -13 - 15. No oka (start = return).
    assert results(state) == [
        ("Aki", 1, "33.2"),
        ("Dana", 2, "11.1"),
        ("Chen", 3, "-16.3"),
        ("Bo", 4, "-28.0"),
    ]


def test_a_wrc_hanchan_head_bump_takes_every_deposit_ties_share_and_a_chombo() -> None:
    outcomes: list[Outcome] = [
        # East 1: Bo and Chen riichi; both claim Aki's discard; the head bump keeps Bo, who takes
        # both sticks: 2 han 30 fu, 2,000 + 2,000.
        Win((Winner(C, limit="mangan"), Winner(B, han=2, fu=30)), A, (B, C)),
        # East 2: dealer Bo self-draws 3 han 60 fu: a mangan with kiriage, 4,000 all.
        tsumo(B, 3, 60),
        # East 2, 1 honba: Dana ron off Bo, seven pairs 2 han 25 fu: 1,600 + 300.
        ron(D, B, 2, 25),
        # East 3: Dana's chombo, 20,000 at the end.
        Chombo(D),
        # East 3: Chen and Dana tenpai, 1,500 each way; the dealer keeps.
        ExhaustiveDraw(tenpai=(C, D)),
        *none_tenpai(2),
        # South 1, 3 honba: Aki alone tenpai: 3,000; Aki and Chen level at 25,500.
        ExhaustiveDraw(tenpai=(A,)),
        *none_tenpai(3),
        # South 4, 7 honba: Bo ron off Dana, 1 han 30 fu: 1,000 + 2,100.
        ron(B, D, 1, 30),
    ]
    played = game("wrc", outcomes)
    assert played.steps[0].winners == (B,)
    assert [step.after.points for step in played.steps[:9]] == [
        (28_000, 33_000, 29_000, 30_000),
        (24_000, 45_000, 25_000, 26_000),
        (24_000, 43_100, 25_000, 27_900),
        (24_000, 43_100, 25_000, 27_900),
        (22_500, 41_600, 26_500, 29_400),
        (22_500, 41_600, 26_500, 29_400),
        (22_500, 41_600, 26_500, 29_400),
        (25_500, 40_600, 25_500, 28_400),
        (25_500, 40_600, 25_500, 28_400),
    ]
    assert labels(played)[7:] == [
        "South 1, 3 honba",
        "South 1, 4 honba",
        "South 2, 5 honba",
        "South 3, 6 honba",
        "South 4, 7 honba",
        None,
    ]
    state = played.state
    assert state.points == (25_500, 43_700, 25_500, 25_300)
    # Bo 13.7 + 15; Aki and Chen share second and third (uma (5 - 5) / 2 = 0): -4.5 each;
    # Dana -4.7 - 15 and the chombo's 20.
    assert results(state) == [
        ("Bo", 1, "28.7"),
        ("Aki", 2, "-4.5"),
        ("Chen", 2, "-4.5"),
        ("Dana", 4, "-39.7"),
    ]


# ---------------------------------------------------------------------------------------------
# The end of the game


def test_a_tenhou_bust_ends_the_game_at_once() -> None:
    # Chen riichi; dealer Aki ron off Bo, a yakuman: 48,000 and the 1,000. Bo at -23,000.
    played = game("tenhou", [Win((Winner(A, yakuman=1),), B, (C,))])
    state = played.state
    assert (state.points, state.ended, state.hand) == (
        (74_000, -23_000, 24_000, 25_000),
        GameEnd.BUST,
        None,
    )
    # Aki 44 + 20 + 20; Dana -5 + 10; Chen -6 - 10; Bo -53 - 20.
    assert results(state) == [
        ("Aki", 1, "84.0"),
        ("Dana", 2, "5.0"),
        ("Chen", 3, "-16.0"),
        ("Bo", 4, "-73.0"),
    ]
    with pytest.raises(GameOverError) as refused:
        advance(state, ExhaustiveDraw())
    assert refused.value.message == (
        "the game is over (a player went below zero): no hand is played after it"
    )


def test_zero_points_is_no_bust_and_a_riichi_may_take_the_last_thousand() -> None:
    # Dealer Aki ron off Bo, a baiman: 24,000. Bo has 1,000 left, declares riichi with it and
    # is tenpai alone: 0, then 3,000.
    played = game(
        "tenhou",
        [Win((Winner(A, limit="baiman"),), B), ExhaustiveDraw(tenpai=(B,), riichi=(B,))],
    )
    assert played.steps[0].after.points == (49_000, 1_000, 25_000, 25_000)
    assert played.state.points == (48_000, 3_000, 24_000, 24_000)
    assert played.state.ended is None


def test_a_chombo_can_bust_where_bust_ends() -> None:
    # Bo down to 1,000 by a dealer's baiman, then Bo's chombo: 4,000 to the dealer, 2,000 to
    # each other: -7,000.
    played = game("tenhou", [BAIMAN_OFF_BO, Chombo(B)])
    assert played.state.points == (53_000, -7_000, 27_000, 27_000)
    assert played.state.ended is GameEnd.BUST


def test_without_bust_the_game_goes_on_below_zero() -> None:
    played = game("ema2016", [Win((Winner(A, yakuman=1),), B)])
    assert played.state.points == (78_000, -18_000, 30_000, 30_000)
    assert played.state.hand == HandLabel(Wind.EAST, 1, 1)


def test_tenhou_extension_goes_on_until_someone_has_the_return_points() -> None:
    # A tonpuusen of four draws, nobody tenpai: all at 25,000 after East 4, so South 1 is
    # played; Bo ron off dealer Aki there, 3 han 40 fu: 5,200 + 1,200: Bo reaches 31,400.
    outcomes: list[Outcome] = [*none_tenpai(4), ron(B, A, 3, 40)]
    played = game("tenhou", outcomes, length="tonpuusen")
    assert labels(played) == [
        "East 1, 0 honba",
        "East 2, 1 honba",
        "East 3, 2 honba",
        "East 4, 3 honba",
        "South 1, 4 honba",
        None,
    ]
    assert played.steps[3].after.in_extension and not played.steps[2].after.in_extension
    state = played.state
    assert (state.points, state.ended) == ((18_600, 31_400, 25_000, 25_000), GameEnd.RETURN_REACHED)
    # Bo 1.4 + 20 + 20; Chen and Dana level at 25,000: East first, so Chen second.
    assert results(state) == [
        ("Bo", 1, "41.4"),
        ("Chen", 2, "5.0"),
        ("Dana", 3, "-15.0"),
        ("Aki", 4, "-31.4"),
    ]


def test_tenhou_extension_ends_even_on_a_dealer_repeat_once_someone_has_the_return() -> None:
    # Dealer Aki self-draws a mangan in South 1 of a tonpuusen at 4 honba: 4,400 all, 38,200.
    played = game("tenhou", [*none_tenpai(4), tsumo(A, 5)], length="tonpuusen")
    assert played.state.ended is GameEnd.RETURN_REACHED
    assert played.state.points == (38_200, 20_600, 20_600, 20_600)


def test_tenhou_extension_is_one_round_at_most_and_leftover_deposits_go_to_first() -> None:
    # Nobody tenpai for seven hands of a tonpuusen (East and then South), then Aki and Bo
    # riichi and tenpai in South 4: 25,500, 25,500, 23,500, 23,500 and 2,000 on the table.
    outcomes: list[Outcome] = [*none_tenpai(7), ExhaustiveDraw(tenpai=(A, B), riichi=(A, B))]
    played = game("tenhou", outcomes, length="tonpuusen")
    state = played.state
    assert labels(played)[-2:] == ["South 4, 7 honba", None]
    assert (state.points, state.deposits, state.ended) == (
        (25_500, 25_500, 23_500, 23_500),
        2_000,
        GameEnd.EXTENSION_OVER,
    )
    # Aki and Bo level: East first, so Aki takes the 2,000: 27,500, -2.5 + 20 + 20.
    assert results(state) == [
        ("Aki", 1, "37.5"),
        ("Bo", 2, "5.5"),
        ("Chen", 3, "-16.5"),
        ("Dana", 4, "-26.5"),
    ]


def test_a_hanchan_extension_is_the_west_round() -> None:
    played = game("tenhou", none_tenpai(8))
    assert played.state.hand is not None and played.state.hand.label == "West 1, 8 honba"
    assert game("tenhou", none_tenpai(12)).state.ended is GameEnd.EXTENSION_OVER


def test_without_extension_the_last_hand_ends_the_game_and_seats_break_ties() -> None:
    played = game("mleague", none_tenpai(4), length="tonpuusen")
    assert played.state.ended is GameEnd.LAST_HAND
    # All at 25,000: East first: -5 + 30 + 20, -5 + 10, -5 - 10, -5 - 30.
    assert results(played.state) == [
        ("Aki", 1, "45.0"),
        ("Bo", 2, "5.0"),
        ("Chen", 3, "-15.0"),
        ("Dana", 4, "-35.0"),
    ]


def test_a_dealer_repeat_at_all_last_goes_on() -> None:
    played = game("ema2016", [*none_tenpai(7), ExhaustiveDraw(tenpai=(D,))])
    assert played.state.hand == HandLabel(Wind.SOUTH, 4, 8)
    assert played.state.all_last and played.state.kept


def test_the_leading_dealer_may_stop_at_all_last() -> None:
    # Tonpuusen: three draws, then dealer Dana ron off Aki in East 4, a mangan: 12,000 + 900.
    outcomes: list[Outcome] = [*none_tenpai(3), Win((Winner(D, han=5),), A)]
    before = game("tenhou", outcomes, length="tonpuusen").state
    assert before.points == (12_100, 25_000, 25_000, 37_900) and before.hand is not None
    assert before.hand.label == "East 4, 4 honba"
    played = game("tenhou", [*outcomes, Stop()], length="tonpuusen")
    assert played.state.ended is GameEnd.STOP and played.steps[-1].changes == (0, 0, 0, 0)
    assert played.state.hands == 4
    assert results(played.state) == [
        ("Dana", 1, "47.9"),
        ("Bo", 2, "5.0"),
        ("Chen", 3, "-15.0"),
        ("Aki", 4, "-37.9"),
    ]


# ---------------------------------------------------------------------------------------------
# Hands


def test_tenhou_abortive_draws_and_three_winners_keep_the_deal() -> None:
    outcomes: list[Outcome] = [
        # Chen riichi, then four kongs: the deal stays, a honba more, the stick stays.
        AbortiveDraw(AbortiveKind.FOUR_KONGS, (C,)),
        # Bo and Dana on Aki's discard: Bo first in turn takes the honba and the stick.
        Win((Winner(D, limit="mangan"), Winner(B, han=3, fu=30)), A),
        # Three players claim Bo's discard: an abortive draw at Tenhou.
        Win((Winner(A, han=1, fu=30), Winner(C, han=1, fu=30), Winner(D, han=1, fu=30)), B),
    ]
    played = game("tenhou", outcomes)
    assert [step.after.points for step in played.steps] == [
        (25_000, 25_000, 24_000, 25_000),
        (12_800, 30_200, 24_000, 33_000),
        (12_800, 30_200, 24_000, 33_000),
    ]
    assert played.steps[1].calls == ("3900", "8000")
    assert played.steps[2].winners == ()
    assert labels(played) == [
        "East 1, 0 honba",
        "East 1, 1 honba",
        "East 2, 0 honba",
        "East 2, 1 honba",
    ]


def test_four_riichi_puts_all_four_sticks_down() -> None:
    played = game("tenhou", [AbortiveDraw(AbortiveKind.FOUR_RIICHI, (A, B, C, D))])
    assert (played.state.points, played.state.deposits) == ((24_000,) * 4, 4_000)


def test_a_dealer_among_winners_on_one_discard_keeps_the_deal() -> None:
    played = game("tenhou", [Win((Winner(A, han=1, fu=30), Winner(C, han=1, fu=30)), B)])
    assert played.state.points == (26_500, 22_500, 26_000, 25_000)
    assert played.state.hand == HandLabel(Wind.EAST, 1, 1)


def test_noten_payments() -> None:
    def after(tenpai: tuple[int, ...]) -> tuple[int, ...]:
        return game("tenhou", [ExhaustiveDraw(tenpai=tenpai)]).state.points

    assert after(()) == (25_000,) * 4
    assert after((B,)) == (24_000, 28_000, 24_000, 24_000)
    assert after((B, D)) == (23_500, 26_500, 23_500, 26_500)
    assert after((A, B, C)) == (26_000, 26_000, 26_000, 22_000)
    assert after((A, B, C, D)) == (25_000,) * 4


def test_nagashi_mangan_replaces_the_noten_payments() -> None:
    # Dealer Aki's nagashi: 4,000 all; two nagashi are both paid. Bo tenpai gets nothing more.
    assert game("tenhou", [ExhaustiveDraw(tenpai=(B,), nagashi=(A,))]).state.points == (
        37_000,
        21_000,
        21_000,
        21_000,
    )
    both = game("tenhou", [ExhaustiveDraw(nagashi=(B, C))]).state
    assert both.points == (17_000, 31_000, 31_000, 21_000)
    assert both.hand == HandLabel(Wind.EAST, 2, 1)


def test_chombo_as_a_reversed_mangan_keeps_the_hand() -> None:
    played = game("tenhou", [Chombo(B), Chombo(A)])
    assert [step.after.points for step in played.steps] == [
        (29_000, 17_000, 27_000, 27_000),
        (17_000, 21_000, 31_000, 31_000),
    ]
    assert played.state.hand == HandLabel(Wind.EAST, 1, 0) and played.state.hands == 0


def test_liability_on_a_discard_is_half_and_half() -> None:
    # Bo ron off Dana, a daisangen Chen let be completed, at 1 honba: Chen 16,000; Dana 16,000
    # and the 300.
    played = game(
        "mleague",
        [ExhaustiveDraw(tenpai=(A,)), Win((Winner(B, yakuman=1, liable=C),), D)],
    )
    assert played.steps[1].changes == (0, 32_300, -16_000, -16_300)


def test_a_liable_discarder_pays_the_whole_hand_and_a_double_yakuman_is_all_the_liables() -> None:
    played = game("tenhou", [Win((Winner(B, yakuman=1, liable=D),), D)])
    assert played.steps[0].changes == (0, 32_000, 0, -32_000)
    # A daisuushii worth two (double_yakuman) by self-draw: the liable Chen pays all 64,000.
    doubled = game("mleague", [Win((Winner(B, yakuman=2, liable=C),))], double_yakuman=True)
    assert doubled.steps[0].changes == (0, 64_000, -64_000, 0)


def test_liability_on_a_self_draw_with_the_engines_score() -> None:
    # Bo self-draws daisangen, tsuuiisou and suuankou (3 yakuman) at 1 honba; Chen let the
    # daisangen be completed: Chen pays it (32,000) and the 300; the other two yakuman are
    # paid as a self-draw: 16,000-32,000.
    result = score_riichi("11122z555666777z", win_tile="7z", seat="S")
    assert result.yakuman == 3
    winner = Winner.from_result(B, result, liable=C)
    assert (winner.yakuman, winner.liable_yakuman) == (3, 1)
    played = game("mleague", [ExhaustiveDraw(tenpai=(A,)), Win((winner,))])
    assert played.steps[1].changes == (-32_000, 96_300, -48_300, -16_000)


def test_a_winner_by_the_engines_value_or_score() -> None:
    options = read_options({"preset": "tenhou"})
    played = game("tenhou", [Win((Winner(B, value=value_of(2, 40, 0, options)),), A)])
    assert played.state.points == (22_400, 27_600, 25_000, 25_000)
    # Riichi alone, 40 fu (a pair of the round wind): 1,300 off dealer Aki.
    result = score_riichi(
        "234m567p789s11z456m",
        win_tile="6m",
        win="discard",
        seat="S",
        discarder="E",
        events=["riichi"],
    )
    assert (result.han, result.fu, result.call) == (1, 40, "1300")
    scored = game("tenhou", [Win((Winner.from_result(B, result),), A, (B,))])
    assert scored.state.points == (23_700, 26_300, 25_000, 25_000)


def test_kiriage_is_the_presets() -> None:
    assert game("ema2016", [ron(A, B, 4, 30)]).steps[0].calls == ("11600",)
    assert game("ema2025", [ron(A, B, 4, 30)]).steps[0].calls == ("12000",)


def test_a_hand_label() -> None:
    assert HandLabel(Wind.EAST, 3, 2).label == "East 3, 2 honba"
    assert start(GameSetup.create(NAMES)).hand == HandLabel(Wind.EAST, 1, 0)


def test_one_decimal() -> None:
    shown = [one_decimal(Fraction(text)) for text in ("231/10", "-69/10", "40/3", "-1/20", "-1/30")]
    assert shown == ["23.1", "-6.9", "13.3", "-0.1", "0.0"]


def test_standings_before_the_end_and_results_only_after() -> None:
    state = game("tenhou", [ron(B, A, 3, 30)]).state
    assert [standing.name for standing in state.standings()] == ["Bo", "Chen", "Dana", "Aki"]
    with pytest.raises(GameError) as refused:
        _ = state.results
    assert refused.value.message == "the game is not over: East 2, 0 honba is to play"


# ---------------------------------------------------------------------------------------------
# Outcomes as JSON


def test_outcomes_read_from_json_and_back() -> None:
    setup = GameSetup.create(NAMES)
    outcomes: list[Outcome] = [
        Win((Winner(B, han=3, fu=30), Winner(C, yakuman=1, liable=D, liable_yakuman=1)), A, (A,)),
        Win((Winner(A, limit="haneman"),)),
        ExhaustiveDraw(tenpai=(A, B), riichi=(B,), nagashi=(C,)),
        AbortiveDraw(AbortiveKind.FOUR_WINDS),
        Chombo(D),
        Stop(),
    ]
    for outcome in outcomes:
        assert read_outcome(setup, outcome_json(outcome)) == outcome
    by_name = {
        "kind": "win",
        "winners": [{"player": "bo", "han": 3, "fu": 30}],
        "discarder": "Aki",
        "riichi": ["Aki"],
    }
    assert read_outcome(setup, by_name) == Win((Winner(B, han=3, fu=30),), A, (A,))
    options = read_options({})
    stored = outcome_json(Win((Winner(B, value=value_of(5, 0, 0, options)),)))
    assert stored == {"kind": "win", "winners": [{"player": 1, "han": 5}]}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"kind": "win", "winners": [{"player": 1, "han": 1, "fu": 30}], "tenpai": [1]},
            'win: no field "tenpai" (it takes winners, discarder, riichi)',
        ),
        (
            {"kind": "exhaustive_draw", "winners": [{"player": 1}]},
            'exhaustive_draw: no field "winners" (it takes tenpai, riichi, nagashi)',
        ),
        ({"kind": "stop", "player": 1}, 'stop: no field "player" (it takes nothing more)'),
        (
            {"kind": "ron"},
            "kind: 'ron' is none of win, exhaustive_draw, abortive_draw, chombo, stop",
        ),
        ({"kind": "win", "winners": []}, "winners: a win has a list of one to three winners"),
        (
            {"kind": "win", "winners": [{"player": 1, "dora": 2}]},
            'winner: no field "dora" (it takes player, han, fu, yakuman, limit, liable, '
            "liable_yakuman)",
        ),
        (
            {"kind": "chombo", "player": "Eve"},
            "player: no player named 'Eve' in this game: Aki, Bo, Chen, Dana",
        ),
        (
            {"kind": "chombo", "player": 4},
            "player: a player is a name or 0 to 3 (the seat at the start)",
        ),
        (
            {"kind": "abortive_draw", "abortive": "five_kongs"},
            "abortive: 'five_kongs' is none of nine_terminals, four_winds, four_kongs, "
            "four_riichi, triple_ron",
        ),
        ({"kind": "exhaustive_draw", "tenpai": "Bo"}, "tenpai: a list of players"),
        ({"kind": "win", "winners": [{"player": 1, "han": "3"}]}, "han: a whole number"),
        ([1], "an outcome is an object with its kind"),
    ],
)
def test_json_refusals(data: Any, message: str) -> None:
    with pytest.raises(GameError) as refused:
        read_outcome(GameSetup.create(NAMES), data)
    assert refused.value.message == message


# ---------------------------------------------------------------------------------------------
# Refusals


def refusal(preset: str, outcomes: Sequence[Outcome], **options: Any) -> str:
    with pytest.raises(GameError) as refused:
        game(preset, outcomes, **options)
    return refused.value.message


@pytest.mark.parametrize(
    ("preset", "outcomes", "message"),
    [
        (
            "mleague",
            [Win((Winner(A, yakuman=1),), B), ExhaustiveDraw(tenpai=(B,), riichi=(B,))],
            "riichi: Bo has -23,000 points and cannot put 1,000 down to declare riichi",
        ),
        (
            "tenhou",
            [BAIMAN_OFF_BO, tsumo(C, 1, 30), ExhaustiveDraw(tenpai=(B,), riichi=(B,))],
            "riichi: Bo has 600 points and cannot put 1,000 down to declare riichi",
        ),
        ("tenhou", [ron(B, B, 1, 30)], "discarder: Bo cannot win on their own discard"),
        (
            "tenhou",
            [Win((Winner(B, han=1, fu=30), Winner(C, han=1, fu=30)))],
            "winners: a self-drawn hand has one winner; several win on a discard",
        ),
        ("tenhou", [Win((), A)], "winners: a win needs a winner"),
        (
            "tenhou",
            [Win((Winner(B, han=1, fu=30), Winner(B, han=2, fu=30)), A)],
            "winners: Bo is named twice",
        ),
        ("tenhou", [ron(B, A, 3)], "winner Bo: a hand of 3 han needs its fu"),
        (
            "tenhou",
            [ron(B, A, 3, 35)],
            "winner Bo: 35 fu is no hand's: 20, 25, or a ten from 30 to 110",
        ),
        (
            "tenhou",
            [ron(B, A, 2, 20)],
            "winner Bo: 20 fu is a pinfu self-draw, never a win on a discard",
        ),
        (
            "tenhou",
            [tsumo(B, 1, 20)],
            "winner Bo: 20 fu comes with at least 2 han (pinfu and menzen tsumo)",
        ),
        ("tenhou", [ron(B, A, 1, 25)], "winner Bo: 25 fu comes with at least 2 han (seven pairs)"),
        ("tenhou", [ron(B, A, 0, 30)], "winner Bo: han must be a whole number from 1 to 100"),
        (
            "tenhou",
            [Win((Winner(B, han=3, fu=30, yakuman=1),), A)],
            "winner Bo: give the hand's han (and fu), its yakuman, a limit or its value, one of "
            "them; got han and yakuman",
        ),
        (
            "tenhou",
            [Win((Winner(B),), A)],
            "winner Bo: give the hand's han (and fu), its yakuman, a limit or its value, one of "
            "them; got nothing",
        ),
        (
            "tenhou",
            [Win((Winner(B, limit="double_mangan"),), A)],
            "winner Bo: limit 'double_mangan' is none of mangan, haneman, baiman, sanbaiman, "
            "kazoe_yakuman, yakuman",
        ),
        (
            "ema2016",
            [Win((Winner(B, limit="kazoe_yakuman"),), A)],
            "winner Bo: this table counts 13 han as a sanbaiman (option kazoe), never a counted "
            "yakuman",
        ),
        (
            "ema2016",
            [Win((Winner(B, yakuman=2),), A)],
            "winner Bo: a hand counts 1 yakuman or more, at most 1 at this table (options "
            "multiple_yakuman, double_yakuman)",
        ),
        (
            "tenhou",
            [Win((Winner(B, han=3, fu=30, liable=C),), A)],
            "liable: a player pays for Bo's hand only for a daisangen or a daisuushii, a yakuman",
        ),
        (
            "tenhou",
            [Win((Winner(B, yakuman=1, liable=B),), A)],
            "liable: Bo cannot pay for their own hand",
        ),
        (
            "tenhou",
            [Win((Winner(B, yakuman=1, liable=C, liable_yakuman=2),), A)],
            "liable_yakuman: the liable player pays for 1 of Bo's yakuman or more, at most the 1 "
            "the hand holds",
        ),
        (
            "tenhou",
            [Win((Winner(B, yakuman=1, liable_yakuman=1),), A)],
            "winner Bo: liable_yakuman without a liable player",
        ),
        (
            "tenhou",
            [ExhaustiveDraw(tenpai=(A,), riichi=(B,))],
            "riichi: Bo declared riichi and is not tenpai at the draw: a riichi without a ready "
            "hand is a chombo; record it as one",
        ),
        ("tenhou", [ExhaustiveDraw(tenpai=(A, A))], "tenpai: Aki is named twice"),
        (
            "tenhou",
            [ExhaustiveDraw(tenpai=(5,))],
            "tenpai: a player is 0 to 3 (East, South, West, North at the start)",
        ),
        (
            "ema2016",
            [ExhaustiveDraw(nagashi=(A,))],
            "nagashi: this table plays no nagashi mangan (option nagashi_mangan)",
        ),
        (
            "mleague",
            [AbortiveDraw(AbortiveKind.NINE_TERMINALS)],
            "abortive draw: this table plays every hand out (option abortive_draws)",
        ),
        (
            "tenhou",
            [AbortiveDraw(AbortiveKind.FOUR_RIICHI, (A, B, C))],
            "abortive draw: four riichi needs all four players in riichi",
        ),
        (
            "mleague",
            [*none_tenpai(7), ExhaustiveDraw(tenpai=(D,)), Stop()],
            "stop: this table plays every hand to the end (option all_last_stop)",
        ),
        (
            "tenhou",
            [ExhaustiveDraw(tenpai=(A,)), Stop()],
            "stop: only the dealer of the last hand may stop, right after keeping the deal by a "
            "win or tenpai",
        ),
        (
            "tenhou",
            [*none_tenpai(7), Stop()],
            "stop: only the dealer of the last hand may stop, right after keeping the deal by a "
            "win or tenpai",
        ),
        (
            "tenhou",
            [*none_tenpai(7), ExhaustiveDraw(tenpai=(C, D)), Stop()],
            "stop: Dana, the dealer, may stop only when leading alone",
        ),
        (
            "tenhou",
            [*none_tenpai(7), ExhaustiveDraw(tenpai=(D,)), Stop()],
            "stop: Dana has 28,000 points, under the return points (30,000): the game goes on",
        ),
        (
            "tenhou",
            [*none_tenpai(12), ExhaustiveDraw()],
            "the game is over (the extension's round was played): no hand is played after it",
        ),
        (
            "tenhou",
            [Chombo(-1)],
            "chombo: a player is 0 to 3 (East, South, West, North at the start)",
        ),
    ],
)
def test_refusals(preset: str, outcomes: Sequence[Outcome], message: str) -> None:
    assert refusal(preset, outcomes) == message


@pytest.mark.parametrize("options", [{"head_bump": True}, {"triple_ron_draws": False}])
def test_three_winners_are_no_abortive_draw_where_the_options_say(options: dict[str, Any]) -> None:
    assert refusal("tenhou", [AbortiveDraw(AbortiveKind.TRIPLE_RON)], **options) == (
        "abortive draw: three winners on one discard are no draw at this table (options "
        "triple_ron_draws, head_bump): record the win"
    )
    three = Win((Winner(A, han=1, fu=30), Winner(C, han=1, fu=30), Winner(D, han=1, fu=30)), B)
    assert len(game("tenhou", [three], **options).steps[0].winners) == (
        1 if "head_bump" in options else 3
    )


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (
            ["Aki", "Bo", "Chen"],
            {},
            "players: a game has four players, East, South, West and North at the start; got 3",
        ),
        (
            ["Aki", "Bo", "Chen", "aki"],
            {},
            "players: each needs a different name: Aki, Bo, Chen, aki",
        ),
        (["Aki", "Bo", "Chen", " "], {}, "players: a name has 1 to 40 characters: ''"),
        (
            NAMES,
            {"uma": [30, 10, -10]},
            "option uma must be four whole numbers, first place's "
            "first, such as [20, 10, -10, -20]",
        ),
        (NAMES, {"uma": [30, 10, -10, -20]}, "option uma: the four must add up to zero"),
        (NAMES, {"length": "west"}, 'option length: "west" is none of hanchan, tonpuusen'),
        (NAMES, {"ties": "coin"}, 'option ties: "coin" is none of seat, share'),
        (NAMES, {"chombo": "fine"}, 'option chombo: "fine" is none of mangan, penalty'),
        (
            NAMES,
            {"start_points": 30_000, "return_points": 25_000},
            "option return_points: cannot be below start_points (the oka)",
        ),
        (
            NAMES,
            {"start_points": 25_050},
            "option start_points: must be a whole hundred from 100 to 1,000,000",
        ),
    ],
)
def test_setup_refusals(players: Sequence[str], options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRequestError) as refused:
        GameSetup.create(players, options)
    assert refused.value.message == message


def test_a_setup_of_its_own_fields() -> None:
    setup = GameSetup.create(NAMES, {"preset": "ema2016", "uma": [20, 10, -10, -20]})
    options = setup.options
    assert (options.start_points, options.return_points, options.oka, options.uma) == (
        30_000,
        30_000,
        0,
        (20, 10, -10, -20),
    )
    tenhou = GameSetup.create(NAMES).options
    assert (tenhou.oka, tenhou.rounds, tenhou.length) == (20_000, 2, "hanchan")
    assert setup.player(" bo ") == B


# ---------------------------------------------------------------------------------------------
# Invariants over seeded random games


def random_outcome(rng: random.Random) -> Outcome:
    players = list(range(4))
    riichi = tuple(player for player in players if rng.random() < 0.15)
    roll = rng.random()
    if roll < 0.45:
        discarder = rng.choice([None, *players])
        others = [player for player in players if player != discarder]
        count = 1 if discarder is None else rng.choice([1, 1, 1, 2, 3])
        winners = []
        for player in rng.sample(others, count):
            form = rng.random()
            if form < 0.6:
                winners.append(Winner(player, han=rng.randint(1, 4), fu=rng.choice((30, 40, 50))))
            elif form < 0.9:
                winners.append(Winner(player, limit=rng.choice(("mangan", "haneman", "baiman"))))
            else:
                winners.append(Winner(player, yakuman=1, liable=rng.choice([None, *others])))
        return Win(tuple(winners), discarder, riichi)
    if roll < 0.85:
        tenpai = tuple(player for player in players if rng.random() < 0.5)
        nagashi = (rng.choice(players),) if rng.random() < 0.05 else ()
        return ExhaustiveDraw(tenpai, tuple(p for p in riichi if p in tenpai), nagashi)
    if roll < 0.92:
        return AbortiveDraw(rng.choice(list(AbortiveKind)[:3]), riichi)
    if roll < 0.97:
        return Chombo(rng.choice(players))
    return Stop()


@pytest.mark.parametrize("preset", ["tenhou", "mleague", "ema2016", "ema2025", "wrc"])
def test_random_games_keep_every_point_and_end(preset: str) -> None:
    rng = random.Random(f"riichi game {preset}")
    setup = GameSetup.create(NAMES, {"preset": preset})
    total = 4 * setup.options.start_points
    for _ in range(40):
        state = start(setup)
        for _ in range(200):
            if state.finished:
                break
            try:
                step = advance(state, random_outcome(rng))
            except GameError:
                continue
            state = step.after
            assert sum(state.points) + state.deposits == total
            assert sum(step.changes) + state.deposits - step.before.deposits == 0
        assert state.finished
        found = state.results
        assert sorted(standing.place for standing in found)[0] == 1
        assert sum(standing.result + standing.penalty for standing in found) == 0
        assert sum(standing.points for standing in found) == total


def test_the_table_presets_as_docs_table_them() -> None:
    fields = (
        "length",
        "start_points",
        "return_points",
        "uma",
        "abortive_draws",
        "triple_ron_draws",
        "nagashi_mangan",
        "bust_ends",
        "chombo",
        "chombo_penalty",
        "ties",
        "all_last_stop",
        "extension",
    )
    assert set(fields) == read_options({}).table_rules
    table = {name: tuple(preset[field] for field in fields) for name, preset in PRESETS.items()}
    ema = ("hanchan", 30_000, 30_000, (15, 5, -5, -15), False, False, False, False, "penalty")
    ema += (20_000, "share", False, False)
    assert table == {
        "tenhou": (
            "hanchan", 25_000, 30_000, (20, 10, -10, -20), True, True, True, True, "mangan",
            20_000, "seat", True, True,
        ),
        "mleague": (
            "hanchan", 25_000, 30_000, (30, 10, -10, -30), False, False, True, False, "mangan",
            20_000, "seat", False, False,
        ),
        "ema2016": ema,
        "ema2025": ema,
        "wrc": ema,
    }  # fmt: skip
    assert [read_options({"preset": name}).oka for name in PRESETS] == [20_000, 20_000, 0, 0, 0]
