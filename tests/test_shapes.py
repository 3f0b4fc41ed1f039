from __future__ import annotations

import pytest

from companion.hand import parse_hand
from companion.shapes import (
    FIVE_SETS,
    FOUR_SETS,
    GroupKind,
    Shape,
    WinRole,
    block_keys,
    blocks,
    clear_memos,
    readings,
    waits,
    waits_of_keys,
)
from companion.tiles import format_tiles, parse_tiles


def _waits(hand: str, melds: tuple[str, ...] = (), five: bool = False) -> str:
    structure = FIVE_SETS if five else FOUR_SETS
    parsed = parse_hand(hand, melds, sets=structure.sets, complete=False)
    return format_tiles(waits(parsed, structure))


def _shapes(text: str, *, discard: bool = False, five: bool = False, **kw: object) -> list[str]:
    structure = FIVE_SETS if five else FOUR_SETS
    hand = parse_hand(text, sets=structure.sets, **kw)  # type: ignore[arg-type]
    return sorted(
        f"{reading} {reading.role.value}" for reading in readings(hand, structure, discard=discard)
    )


def test_three_pungs_or_three_chows() -> None:
    found = _shapes("111222333m456p77z", winning_tile="7z")
    assert found == ["111m 222m 333m 456p 77z pair", "123m 123m 123m 456p 77z pair"]


def test_winning_tile_roles_in_every_reading() -> None:
    found = _shapes("111222333m456p77z", winning_tile="2m")
    assert found == ["111m 222m 333m 456p 77z pung", "123m 123m 123m 456p 77z closed"]


def test_roles_two_sided_closed_edge() -> None:
    assert _shapes("123m456p789s11z45s6s") == ["123m 456p 456s 789s 11z two_sided"]
    assert _shapes("123m456p789s11z46s5s") == ["123m 456p 456s 789s 11z closed"]
    assert _shapes("456m456p789s11z12s3s") == ["456m 456p 123s 789s 11z edge"]
    assert _shapes("456m456p123s11z89s7s") == ["456m 456p 123s 789s 11z edge"]
    assert _shapes("456m456p123s11z78s9s") == ["456m 456p 123s 789s 11z two_sided"]


def test_discard_exposes_the_completed_set() -> None:
    hand = parse_hand("111m234p789s11z55s5s", ["pung 777z"][:0])
    (self_drawn,) = [r for r in readings(hand, FOUR_SETS, discard=False) if r.role is WinRole.PUNG]
    (discarded,) = [r for r in readings(hand, FOUR_SETS, discard=True) if r.role is WinRole.PUNG]
    assert self_drawn.winning_group.concealed
    assert not discarded.winning_group.concealed
    assert sum(g.concealed for g in discarded.sets) == 3


def test_declared_groups_are_fixed_and_exposed_except_concealed_kong() -> None:
    hand = parse_hand("123m11z55s5s", ["pung 777z", "ckong 6666z"])
    (reading,) = readings(hand, FOUR_SETS, discard=False)
    declared = [g for g in reading.groups if g.declared]
    assert [(g.kind, g.concealed) for g in declared] == [
        (GroupKind.PUNG, False),
        (GroupKind.KONG, True),
    ]
    assert str(reading) == "777z 6666z 123m 555s 11z"


def test_four_copies() -> None:
    assert _shapes("1111234m567p789s4m") == ["111m 123m 567p 789s 44m pair"]
    # 1m would make the pair of 111-234-1, but all four copies are already held.
    assert _waits("1111234m567p789s") == "4m"
    assert _waits("1112234m567p789s") == "235m"


def test_no_reading_for_a_non_win() -> None:
    assert _shapes("123m456p789s123z55s") == []


def test_nine_gates_waits_on_all_nine() -> None:
    assert _waits("1112345678999m") == "123456789m"
    assert _waits("1112345678999p") == "123456789p"


def test_thirteen_sided_orphans() -> None:
    assert _waits("19m19p19s1234567z") == "19m19p19s1234567z"
    found = _shapes("19m19p19s1234567z1m")
    assert found == ["11m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z pair"]
    hand = parse_hand("19m19p19s1234567z1m")
    (reading,) = readings(hand, FOUR_SETS, discard=True)
    assert reading.shape is Shape.THIRTEEN_ORPHANS


def test_single_orphan_wait() -> None:
    assert _waits("119m19p19s123456z") == "7z"


def test_exhausted_wait() -> None:
    assert _waits("789m1223333445s") == "6s"


def test_kind_held_four_times_counting_melds_is_no_wait() -> None:
    assert _waits("1m", ("pung 111m", "chow 123p", "chow 456p", "chow 789p")) == ""
    assert _waits("1m", ("chow 123m", "chow 123p", "chow 456p", "chow 789p")) == "1m"


def test_sixteen_tile_taiwan_hand() -> None:
    assert _waits("123m456m789m123p45p11s", five=True) == "36p"
    found = _shapes("123m456m789m123p456p55s", five=True)
    assert found == ["123m 456m 789m 123p 456p 55s pair"]


def test_eight_pairs_wait_on_eight_kinds() -> None:
    assert _waits("1133557799m1133p22z", five=True) == "13579m13p2z"


def test_seven_pairs_and_a_triplet_reading() -> None:
    found = _shapes("1133557799m1133p2z22z", five=True)
    assert found == ["222z 11m 33m 55m 77m 99m 11p 33p pung"]


def test_seven_pairs_are_not_a_singapore_win() -> None:
    assert _waits("1133557799m113z") == ""


def test_four_copies_cannot_be_two_pairs() -> None:
    assert _waits("1111335577m113355p", five=True) == ""


def test_waits_with_declared_groups() -> None:
    assert _waits("45s11z", ("pung 777z", "chow 123m", "pung 111s")) == "36s"
    assert _waits("1s", ("pung 777z", "chow 123m", "chow 456p", "kong 2222s")) == "1s"


def test_waiting_hand_tiles_parse() -> None:
    assert parse_tiles("1112345678999m")


def test_a_tile_between_two_runs_joins_them() -> None:
    assert _waits("13m456p789s111z22z") == "2m"
    assert _waits("1113m456p789s111z") == "23m"
    assert _waits("1112345678999m") == "123456789m"


def test_waits_at_the_ends_of_a_suit() -> None:
    assert _waits("12m456p789s111z22z") == "3m"
    assert _waits("89m456p789s111z22z") == "7m"
    assert _waits("23m456p789s111z22z") == "14m"


def test_waits_of_keys_reads_the_tiles_as_block_keys() -> None:
    hand = parse_hand("45s11z", ("pung 777z", "chow 123m", "pung 111s"), complete=False)
    found = waits_of_keys(block_keys(hand.concealed), hand.melds, FOUR_SETS)
    assert format_tiles(found) == "36s"


def test_memos_stay_bounded_and_answers_stay_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = ["1112345678999m", "13m456p789s111z22z", "123m456p789s11z45s", "19m19p19s1234567z"]
    expected = [_waits(hand) for hand in hands]
    monkeypatch.setattr(blocks, "MEMO_LIMIT", 3)
    clear_memos()
    assert [_waits(hand) for hand in hands] == expected
    assert _shapes("1111234m567p789s4m") == ["111m 123m 567p 789s 44m pair"]
    assert all(len(memo) <= 3 for memo in blocks.WAIT_ENTRIES)
    clear_memos()
