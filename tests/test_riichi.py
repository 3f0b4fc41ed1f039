"""The `riichi` engine (not yet a registered profile): every yaku and yakuman with a hand, the
exclusions, fu with its items, limits and the calls as players say them, payments with honba
and deposits, the presets and each option alone, red fives, and the refusals with the fields
they name. Points are Tenhou's tables."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from companion.errors import CompanionError, InvalidRequestError, NotAWinError
from companion.rules.riichi import (
    PRESETS,
    RiichiResult,
    read_options,
    riichi_waits,
    score_riichi,
    score_several_riichi,
)
from companion.rules.riichi.yaku import (
    DOUBLE_FORMS,
    OPTIONAL_PATTERNS,
    OPTIONAL_YAKU,
    YAKU,
    YAKUMAN,
    optional_table,
    switched,
)
from companion.tiles import Wind

RON = {"win": "discard", "discarder": "N", "seat": "S"}
"""South wins on North's discard: a non-dealer's ron."""
TSUMO = {"seat": "S"}
"""South's self-draw."""
PINFU = "123m456p789s234m99s"
"""Four chows, a plain pair: pinfu on the two-sided 4m."""


def riichi(hand: str, **fields: Any) -> RiichiResult:
    return score_riichi(hand, **fields)


def ids(result: RiichiResult) -> list[str]:
    return [pattern.id for pattern in result.patterns]


# (case, hand, fields, pattern ids in order, han, fu, yakuman, call)
HANDS: list[tuple[str, str, dict[str, Any], list[str], int, int, int, str]] = [
    ("riichi", PINFU, {"win_tile": "4m", "events": ["riichi"], **RON},
     ["riichi", "pinfu"], 2, 30, 0, "2000"),
    ("double_riichi", PINFU, {"win_tile": "4m", "events": ["double_riichi"], **RON},
     ["double_riichi", "pinfu"], 3, 30, 0, "3900"),
    ("ippatsu", PINFU, {"win_tile": "4m", "events": ["riichi", "ippatsu"], **RON},
     ["riichi", "ippatsu", "pinfu"], 3, 30, 0, "3900"),
    ("menzen_tsumo", PINFU, {"win_tile": "3m", **TSUMO}, ["menzen_tsumo"], 1, 30, 0, "300-500"),
    ("pinfu", PINFU, {"win_tile": "4m", **RON}, ["pinfu"], 1, 30, 0, "1000"),
    ("pinfu_tsumo", PINFU, {"win_tile": "4m", **TSUMO},
     ["menzen_tsumo", "pinfu"], 2, 20, 0, "400-700"),
    ("iipeikou", "112233m456p789s99s", {"win_tile": "3m", **RON}, ["iipeikou"], 1, 40, 0, "1300"),
    ("tanyao", "234m456p678s22s", {"melds": ["chow 345p"], "win_tile": "2s", **RON},
     ["tanyao"], 1, 30, 0, "1000"),
    ("yakuhai_dragon", "123m456p789s99s", {"melds": ["pung 555z"], "win_tile": "9s", **RON},
     ["yakuhai_dragon"], 1, 30, 0, "1000"),
    ("yakuhai_seat", "123m456p789s99s", {"melds": ["pung 222z"], "win_tile": "9s", **RON},
     ["yakuhai_seat"], 1, 30, 0, "1000"),
    ("yakuhai_round", "123m456p789s99s", {"melds": ["pung 111z"], "win_tile": "9s", **RON},
     ["yakuhai_round"], 1, 30, 0, "1000"),
    ("haitei", "123m456p789s99s", {"melds": ["chow 234m"], "win_tile": "9s",
     "events": ["last_tile"], **TSUMO}, ["haitei"], 1, 30, 0, "300-500"),
    ("houtei", "123m456p789s99s", {"melds": ["chow 234m"], "win_tile": "9s",
     "events": ["last_discard"], **RON}, ["houtei"], 1, 30, 0, "1000"),
    ("rinshan", "123m456p789s99s", {"melds": ["kong 8888m"], "win_tile": "9s",
     "events": ["replacement"], **TSUMO}, ["rinshan"], 1, 40, 0, "400-700"),
    ("chankan", "123m456p789s99s", {"melds": ["chow 234m"], "win_tile": "1m",
     "events": ["robbing_kong"], **RON}, ["chankan"], 1, 30, 0, "1000"),
    ("chanta", "123m789p789s999m11z", {"win_tile": "1z", **RON}, ["chanta"], 2, 50, 0, "3200"),
    ("ittsu", "123456789m456p99s", {"win_tile": "9s", **RON}, ["ittsu"], 2, 40, 0, "2600"),
    ("sanshoku", "234m234p234s678m99s", {"win_tile": "9s", **RON},
     ["sanshoku"], 2, 40, 0, "2600"),
    ("sanshoku_doukou", "222m222p222s456m99s", {"win_tile": "9s", **RON},
     ["sanshoku_doukou", "sanankou"], 4, 50, 0, "8000"),
    ("toitoi", "222m99s", {"melds": ["pung 444p", "pung 666s", "pung 777m"], "win_tile": "9s",
     **RON}, ["toitoi"], 2, 40, 0, "2600"),
    ("sanankou", "222m444p666s345m99s", {"win_tile": "5m", **RON},
     ["sanankou"], 2, 50, 0, "3200"),
    ("sankantsu", "345m99s", {"melds": ["kong 2222m", "kong 4444p", "kong 6666s"],
     "win_tile": "9s", **RON}, ["sankantsu"], 2, 50, 0, "3200"),
    ("honroutou", "111m999p999s11z", {"melds": ["pung 222z"], "win_tile": "1z", **RON,
     "seat": "W"}, ["toitoi", "sanankou", "honroutou"], 6, 60, 0, "12000"),
    ("shousangen", "555z666z77z123m999s", {"win_tile": "3m", **RON},
     ["yakuhai_dragon", "chanta", "sanankou", "shousangen"], 8, 60, 0, "16000"),
    ("chiitoitsu", "1133m4477p2255s66z", {"win_tile": "6z", **RON},
     ["chiitoitsu"], 2, 25, 0, "1600"),
    ("honitsu", "123456789m222z99m", {"win_tile": "9m", **RON, "seat": "W"},
     ["ittsu", "honitsu"], 5, 40, 0, "8000"),
    ("junchan", "123m789p789s111m99s", {"win_tile": "9s", **RON}, ["junchan"], 3, 40, 0, "5200"),
    ("ryanpeikou", "112233m445566p77s", {"win_tile": "7s", **RON},
     ["ryanpeikou"], 3, 40, 0, "5200"),
    ("chinitsu", "123345567789m22m", {"win_tile": "2m", **RON}, ["chinitsu"], 6, 40, 0, "12000"),
    ("renhou", PINFU, {"win_tile": "4m", "events": ["renhou"], "options": {"preset": "wrc"},
     **RON}, ["pinfu", "renhou"], 6, 30, 0, "12000"),
    ("kokushi", "119m19p19s1234567z", {"win_tile": "9m", **TSUMO},
     ["kokushi"], 0, 30, 1, "8000-16000"),
    ("kokushi_13", "19m19p19s12345677z", {"win_tile": "7z", **TSUMO},
     ["kokushi_13"], 0, 30, 1, "8000-16000"),
    ("suuankou", "222m444p666s888m99s", {"win_tile": "8m", **TSUMO},
     ["suuankou"], 0, 40, 1, "8000-16000"),
    ("suuankou_tanki", "222m444p666s888m99s", {"win_tile": "9s", **RON},
     ["suuankou_tanki"], 0, 50, 1, "32000"),
    ("daisangen", "555z666z777z123m99s", {"win_tile": "9s", **RON},
     ["daisangen"], 0, 60, 1, "32000"),
    ("shousuushii", "111z222z333z44z123m", {"win_tile": "3m", **RON},
     ["shousuushii"], 0, 60, 1, "32000"),
    ("daisuushii", "111z222z333z444z99m", {"win_tile": "9m", **RON},
     ["suuankou_tanki", "daisuushii"], 0, 70, 2, "64000"),
    ("tsuuiisou", "111z222z555z666z77z", {"win_tile": "7z", **RON},
     ["suuankou_tanki", "tsuuiisou"], 0, 70, 2, "64000"),
    ("chinroutou", "111m999m111p999p11s", {"win_tile": "1s", **RON},
     ["suuankou_tanki", "chinroutou"], 0, 70, 2, "64000"),
    ("ryuuiisou", "222s333s444s666s88s", {"win_tile": "8s", **RON},
     ["suuankou_tanki", "ryuuiisou"], 0, 50, 2, "64000"),
    ("chuuren", "11122345678999m", {"win_tile": "5m", **TSUMO},
     ["chuuren"], 0, 40, 1, "8000-16000"),
    ("junsei_chuuren", "11123456789999m", {"win_tile": "9m", **TSUMO},
     ["junsei_chuuren"], 0, 30, 1, "8000-16000"),
    ("suukantsu", "99s", {"melds": ["kong 2222m", "kong 4444p", "kong 6666s", "kong 8888m"],
     "win_tile": "9s", **RON}, ["suukantsu"], 0, 60, 1, "32000"),
    ("tenhou", PINFU, {"win_tile": "9s", "seat": "E", "events": ["heavenly"]},
     ["tenhou"], 0, 30, 1, "16000 all"),
    ("chiihou", PINFU, {"win_tile": "9s", "events": ["earthly"], **TSUMO},
     ["chiihou"], 0, 30, 1, "8000-16000"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "fields", "expected", "han", "fu", "yakuman", "call"),
    [case[1:] for case in HANDS],
    ids=[case[0] for case in HANDS],
)
def test_every_yaku_and_yakuman_scores_on_a_hand(
    hand: str,
    fields: dict[str, Any],
    expected: list[str],
    han: int,
    fu: int,
    yakuman: int,
    call: str,
) -> None:
    result = riichi(hand, **fields)
    assert ids(result) == expected
    assert (result.han, result.fu, result.yakuman, result.call) == (han, fu, yakuman, call)
    assert sum(result.payments.values()) == 0


def test_the_hands_cover_every_yaku_and_yakuman_of_the_table() -> None:
    covered = {pattern_id for case in HANDS for pattern_id in case[3]}
    table = {pattern.id for pattern in (*YAKU, *YAKUMAN, *OPTIONAL_PATTERNS)}
    assert table - covered == set()


# ---------------------------------------------------------------------------------------------
# Exclusions


def test_junchan_replaces_chanta_and_chinitsu_replaces_honitsu() -> None:
    assert "chanta" not in ids(riichi("123m789p789s111m99s", win_tile="9s", **RON))
    assert "honitsu" not in ids(riichi("123345567789m22m", win_tile="2m", **RON))
    by_id = {pattern.id: pattern for pattern in (*YAKU, *YAKUMAN)}
    assert by_id["junchan"].replaces == {"chanta"}
    assert by_id["chinitsu"].replaces == {"honitsu"}
    assert by_id["double_riichi"].replaces == {"riichi"}
    assert by_id["ryanpeikou"].replaces == {"iipeikou"}
    for form, plain in [
        ("kokushi_13", "kokushi"),
        ("suuankou_tanki", "suuankou"),
        ("junsei_chuuren", "chuuren"),
        ("daisuushii", "shousuushii"),
    ]:
        assert by_id[form].replaces == {plain}


def test_ryanpeikou_reads_four_sets_never_seven_pairs() -> None:
    result = riichi("112233m445566p77s", win_tile="7s", **RON)
    assert ids(result) == ["ryanpeikou"]
    assert result.groups == ("123m", "123m", "456p", "456p", "77s")


def test_a_yakuman_leaves_the_yaku_and_the_dora_out() -> None:
    result = riichi("555z666z777z123m99s", win_tile="9s", dora="4z", events=["riichi"], **RON)
    assert ids(result) == ["daisangen"] and result.han == 0


def test_four_of_a_kind_is_not_two_pairs() -> None:
    with pytest.raises(NotAWinError, match="no four sets and a pair, seven pairs"):
        riichi("1111m4477p2255s66z", win_tile="6z", **RON)


def test_dora_alone_is_not_a_win() -> None:
    with pytest.raises(NotAWinError) as refusal:
        riichi("123m456p789s99s", melds=["chow 234m"], win_tile="9s", dora="1m", **RON)
    assert refusal.value.message == "not a win: no yaku (dora are not yaku)"
    assert refusal.value.key == "refusal.no_yaku"


def test_dora_ura_dora_and_red_fives_count_beside_the_yaku() -> None:
    result = riichi(
        "234m406p22345678s", win_tile="8s", dora="1m", ura_dora="1s", events=["riichi"], **TSUMO
    )
    scored = {pattern.id: pattern.han for pattern in result.patterns}
    assert scored == {
        "riichi": 1,
        "menzen_tsumo": 1,
        "pinfu": 1,
        "tanyao": 1,
        "dora": 1,
        "aka_dora": 1,
        "ura_dora": 2,
    }
    assert (result.han, result.limit, result.call) == (8, "baiman", "4000-8000")


def test_an_indicator_makes_the_next_kind_a_dora_in_its_cycle() -> None:
    # 9m makes 1m; North makes East; Red makes White.
    result = riichi("111m456p789s99s", melds=["pung 111z"], win_tile="9s", dora="9m4z7z", **RON)
    assert {p.id: p.han for p in result.patterns} == {"yakuhai_round": 1, "dora": 6}


# ---------------------------------------------------------------------------------------------
# Fu


def test_fu_items_of_a_closed_ron_with_pungs_and_a_closed_wait() -> None:
    result = riichi("222m444p999s345m11z", win_tile="4m", **RON, events=["riichi"])
    assert [item.to_json() for item in result.fu_items] == [
        {"fu": 20, "for": "base"},
        {"fu": 10, "for": "closed_ron"},
        {"fu": 4, "for": "pung 222m"},
        {"fu": 4, "for": "pung 444p"},
        {"fu": 8, "for": "pung 999s"},
        {"fu": 2, "for": "pair 11z"},
        {"fu": 2, "for": "wait closed"},
    ]
    assert result.fu == 50


def test_a_pung_completed_by_a_discard_is_open() -> None:
    result = riichi("222m444p999s345m11m", win_tile="9s", **RON, events=["riichi"])
    assert {"fu": 4, "for": "pung 999s"} in [item.to_json() for item in result.fu_items]
    assert "sanankou" not in ids(result)


def test_the_fixed_fu() -> None:
    assert riichi(PINFU, win_tile="4m", **TSUMO).fu == 20
    assert riichi("1133m4477p2255s66z", win_tile="6z", **RON).fu == 25
    open_pinfu = riichi("234m456p678s22s", melds=["chow 345p"], win_tile="8s", **RON)
    assert [item.to_json() for item in open_pinfu.fu_items] == [
        {"fu": 20, "for": "base"},
        {"fu": 10, "for": "open_pinfu"},
    ]


def test_the_reading_worth_most_is_scored() -> None:
    # 2344m + 4m: the 4m ends 23 (two-sided: pinfu) or pairs the single 4 (a pair wait, 2 fu
    # and no pinfu); the two-sided reading pays more.
    result = riichi("123p456p789s23444m", win_tile="4m", **RON, events=["riichi"])
    assert (ids(result), result.fu, result.call) == (["riichi", "pinfu"], 30, "2000")
    assert [item.reason for item in result.fu_items] == ["base", "closed_ron"]


def test_the_double_wind_pair_is_4_fu_or_2_with_the_option() -> None:
    fields = {"win_tile": "3m", "seat": "E", "events": ["riichi"]}
    hand = "222p456m789s123m11z"
    tenhou = riichi(hand, **fields)
    assert {"fu": 4, "for": "pair 11z"} in [item.to_json() for item in tenhou.fu_items]
    assert (tenhou.fu, tenhou.call) == (40, "1300 all")
    mleague = riichi(hand, **fields, options={"preset": "mleague"})
    assert (mleague.fu, mleague.call) == (30, "1000 all")
    alone = riichi(hand, **fields, options={"double_wind_pair_fu": 2})
    assert alone.fu == 30


# ---------------------------------------------------------------------------------------------
# Limits, calls and payments

KAZOE_DORA = "1m3m4p6p1s2s4s7s"
"""Nine dora on the pinfu-tanyao hand below: 13 han with riichi and self-draw."""


@pytest.mark.parametrize(
    ("fields", "limit", "call"),
    [
        ({"dora": "1m"}, "mangan", "2000-4000"),
        ({"dora": "1m4p"}, "haneman", "3000-6000"),
        ({"dora": "1m4p1s"}, "baiman", "4000-8000"),
        ({"dora": "1m3m4p6p1s2s"}, "sanbaiman", "6000-12000"),
        ({"dora": KAZOE_DORA}, "kazoe_yakuman", "8000-16000"),
        ({"dora": KAZOE_DORA, "options": {"kazoe": "sanbaiman"}}, "sanbaiman", "6000-12000"),
        ({"dora": KAZOE_DORA, "options": {"preset": "ema2016"}}, "sanbaiman", "6000-12000"),
    ],
)
def test_the_limits(fields: dict[str, Any], limit: str, call: str) -> None:
    result = riichi("234m567p22345678s", win_tile="8s", events=["riichi"], **TSUMO, **fields)
    assert (result.limit, result.call) == (limit, call)


def test_the_usual_calls() -> None:
    tanyao = "234m567p22345678s"
    dealer_ron = {"win": "discard", "discarder": "S", "seat": "E"}
    four_30 = {"win_tile": "8s", "events": ["riichi"], "dora": "1m"}
    assert riichi(tanyao, **four_30, **RON).call == "7700"
    assert riichi(tanyao, **four_30, **dealer_ron).call == "11600"
    assert riichi(PINFU, win_tile="4m", seat="E").call == "700 all"
    assert riichi(PINFU, win_tile="4m", seat="E", events=["riichi"]).call == "1300 all"
    assert riichi(tanyao, win_tile="8s", events=["riichi"], **TSUMO).call == "1300-2600"
    assert riichi(tanyao, win_tile="8s", events=["riichi"], dora="1m4p", seat="E").call == (
        "6000 all"
    )


def test_kiriage_makes_4_han_30_fu_a_mangan() -> None:
    fields = {"win_tile": "8s", "events": ["riichi"], "dora": "1m", **RON}
    plain = riichi("234m567p22345678s", **fields)
    assert (plain.han, plain.fu, plain.limit, plain.call) == (4, 30, None, "7700")
    cut = riichi("234m567p22345678s", **fields, options={"kiriage": True})
    assert (cut.limit, cut.call) == ("mangan", "8000")
    assert riichi("234m567p22345678s", **fields, options={"preset": "mleague"}).call == "8000"


def test_ron_payments_with_honba_and_deposits() -> None:
    result = riichi(PINFU, win_tile="4m", honba=2, riichi_sticks=3, **RON)
    assert result.payments == {Wind.EAST: 0, Wind.SOUTH: 1600, Wind.WEST: 0, Wind.NORTH: -1600}
    assert (result.call, result.deposits) == ("1000", 3000)


def test_self_draw_payments_with_honba() -> None:
    result = riichi(PINFU, win_tile="3m", honba=1, **TSUMO)
    assert result.call == "300-500"
    assert result.payments == {
        Wind.EAST: -600,
        Wind.SOUTH: 1400,
        Wind.WEST: -400,
        Wind.NORTH: -400,
    }
    custom = riichi(PINFU, win_tile="3m", honba=1, **TSUMO, options={"honba_value": 600})
    assert custom.payments[Wind.WEST] == -500


def test_double_and_multiple_yakuman() -> None:
    thirteen = {"win_tile": "7z", **TSUMO}
    assert riichi("19m19p19s12345677z", **thirteen).yakuman == 1
    double = riichi("19m19p19s12345677z", **thirteen, options={"double_yakuman": True})
    assert (double.yakuman, double.call) == (2, "16000-32000")
    assert sorted(DOUBLE_FORMS) == ["daisuushii", "junsei_chuuren", "kokushi_13", "suuankou_tanki"]
    winds = {"win_tile": "9m", **RON}
    assert riichi("111z222z333z444z99m", **winds).yakuman == 2
    one = riichi("111z222z333z444z99m", **winds, options={"multiple_yakuman": False})
    assert (one.yakuman, one.call) == (1, "32000")
    both = riichi(
        "111z222z333z444z99m",
        **winds,
        options={"multiple_yakuman": False, "double_yakuman": True},
    )
    assert both.yakuman == 2


def test_renhou_as_a_yakuman() -> None:
    result = riichi(PINFU, win_tile="4m", events=["renhou"], options={"renhou": "yakuman"}, **RON)
    assert (ids(result), result.call) == (["renhou"], "32000")


def test_open_tanyao_off_leaves_an_open_hand_without_it() -> None:
    fields = {"melds": ["chow 345p"], "win_tile": "2s", **RON}
    with pytest.raises(NotAWinError, match="no yaku"):
        riichi("234m456p678s22s", **fields, options={"open_tanyao": False})


# ---------------------------------------------------------------------------------------------
# Presets, options, red fives


def test_the_presets_as_tabled() -> None:
    table = {
        name: (
            fields["red_fives"],
            fields["kiriage"],
            fields["kazoe"],
            fields["double_yakuman"],
            fields["multiple_yakuman"],
            fields["double_wind_pair_fu"],
            fields["head_bump"],
            fields["open_tanyao"],
        )
        for name, fields in PRESETS.items()
    }
    assert table == {
        "tenhou": (True, False, "yakuman", False, True, 4, False, True),
        "mleague": (True, True, "sanbaiman", False, True, 2, True, True),
        "ema2016": (False, False, "sanbaiman", False, False, 4, False, True),
        "ema2025": (False, True, "sanbaiman", False, False, 4, False, True),
        "wrc": (False, True, "sanbaiman", False, False, 4, True, True),
    }


def test_a_local_yaku_is_switched_off_but_in_its_presets() -> None:
    kokushi = YAKUMAN[0]
    entry = switched(kokushi, "a stand-in", "wrc")
    assert (entry.option, entry.default, entry.listed, dict(entry.presets)) == (
        "kokushi",
        False,
        kokushi,
        {"wrc": True},
    )
    assert entry.pattern_in(SimpleNamespace(kokushi=False)) is None
    assert entry.pattern_in(SimpleNamespace(kokushi=True)) is kokushi
    assert "| `kokushi` | Kokushi musou 国士無双: a stand-in | on: 1 yakuman | off | `wrc` |" in (
        optional_table((entry,))
    )


def test_each_optional_yaku_is_an_option_its_presets_set() -> None:
    defaults = read_options({})
    for entry in OPTIONAL_YAKU:
        assert all(pattern.id == entry.option for pattern in entry.plays.values() if pattern)
        assert entry.value_in(defaults) == entry.default
        assert entry.pattern_in(defaults) is None, "an optional yaku is off by default"
        assert set(entry.presets) <= set(PRESETS)
        for name, fields in PRESETS.items():
            assert fields[entry.option] == entry.presets.get(name, entry.default)
        for value, pattern in entry.plays.items():
            played = read_options({entry.option: value})
            assert entry.pattern_in(played) is pattern


def test_a_field_set_alone_overrides_its_preset() -> None:
    options = read_options({"preset": "ema2016", "red_fives": True})
    assert (options.preset, options.red_fives, options.kazoe) == ("ema2016", True, "sanbaiman")
    assert read_options({}).preset == "tenhou"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"preset": "jpml"}, "option preset: 'jpml' is none of tenhou, mleague, ema2016"),
        ({"kazoe": "baiman"}, 'option kazoe: "baiman" is none of yakuman, sanbaiman'),
        ({"renhou": "haneman"}, 'option renhou: "haneman" is none of off, mangan, yakuman'),
        ({"double_wind_pair_fu": 3}, "option double_wind_pair_fu: must be 2 or 4"),
        ({"honba_value": 100}, "option honba_value: must be a whole multiple of 3"),
        ({"kiriage": "yes"}, "option kiriage must be true or false"),
        ({"dora_count": 1}, 'unknown option "dora_count"'),
    ],
)
def test_options_refused_name_the_option(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRequestError) as refusal:
        read_options(options)
    assert refusal.value.message.startswith(message)


def test_red_fives_by_mpsz_and_by_name() -> None:
    by_name = riichi(
        "234m 4p, red five of circles, 6p 22345678s", win_tile="8s", events=["riichi"], **TSUMO
    )
    assert {p.id: p.han for p in by_name.patterns}["aka_dora"] == 1
    in_meld = riichi("234m22345678s", melds=["chow 406p"], win_tile="8s", **RON)
    assert {p.id: p.han for p in in_meld.patterns} == {"tanyao": 1, "aka_dora": 1}


def test_red_fives_refused_where_the_table_has_none_or_two_of_a_suit() -> None:
    with pytest.raises(InvalidRequestError, match=r"^hand: red fives .* \(option red_fives\)$"):
        riichi("234m406p22345678s", win_tile="8s", options={"preset": "ema2016"}, **TSUMO)
    with pytest.raises(InvalidRequestError, match="2 red fives of p"):
        riichi("234m400p22345678s", win_tile="8s", **TSUMO)
    with pytest.raises(InvalidRequestError, match="one red five of each suit"):
        riichi("123m05p345678s", melds=["chow 406p"], win_tile="5p", **RON)


def test_flowers_are_refused() -> None:
    with pytest.raises(InvalidRequestError, match="riichi has no flowers or animals"):
        riichi("234m567p2234567s1f", win_tile="7s", **TSUMO)


# ---------------------------------------------------------------------------------------------
# Refusals of what cannot have happened


@pytest.mark.parametrize(
    ("hand", "fields", "message"),
    [
        ("123m456p789s99s", {"melds": ["chow 234m"], "events": ["riichi"], "win_tile": "9s", **RON},
         "events: riichi with a claimed group (chow 234m) in melds"),
        (PINFU, {"events": ["riichi", "double_riichi"], **RON},
         "events: double_riichi is in place of riichi, not beside it"),
        (PINFU, {"events": ["ippatsu"], **RON}, "events: ippatsu without riichi"),
        (PINFU, {"ura_dora": "1m", **RON}, "ura_dora: ura dora count only with riichi in events"),
        ("123m456p789s99s", {"melds": ["kong 8888m"], "events": ["replacement"],
         "win_tile": "9s", **RON},
         'events: replacement (rinshan) on a discard; win must be "self_draw"'),
        (PINFU, {"events": ["replacement"], **TSUMO},
         "events: replacement (rinshan) without a kong in melds"),
        ("123m456p789s99s", {"melds": ["kong 8888m"], "events": ["replacement", "last_tile"],
         "win_tile": "9s", **TSUMO}, "events: last_tile (haitei) with replacement (rinshan)"),
        (PINFU, {"events": ["last_tile"], **RON}, "events: last_tile (haitei) is a self-draw"),
        (PINFU, {"events": ["last_discard"], **TSUMO},
         'events: last_discard (houtei) is a discard win; win must be "discard"'),
        (PINFU, {"events": ["robbing_kong"], **TSUMO},
         "robbing_kong wins on another player's kong tile: enter it as a discard win"),
        (PINFU, {"events": ["heavenly"], **TSUMO},
         "heavenly is the dealer's win: seat S is not the dealer (E)"),
        (PINFU, {"events": ["earthly"], "seat": "E"},
         "earthly is a non-dealer's win: seat E is the dealer"),
        (PINFU, {"events": ["renhou"], **RON},
         'events: renhou is not played (option renhou is "off")'),
        (PINFU, {"events": ["renhou"], "options": {"preset": "wrc"}, **TSUMO},
         "events: renhou is a non-dealer's discard win, no melds"),
        (PINFU, {"events": ["nagashi"], **RON}, 'events: unknown event "nagashi"'),
        (PINFU, {"win": "discard", "seat": "S"}, "discarder: a discard win needs the discarder"),
        (PINFU, {"win": "discard", "seat": "S", "discarder": "S"},
         "discarder: the winner cannot win on their own discard"),
        (PINFU, {"seat": "S", "discarder": "N"}, "discarder: a self-drawn win has no discarder"),
        (PINFU, {"win": "ron", **TSUMO}, 'win: "ron" is neither "self_draw" nor "discard"'),
        (PINFU, {"honba": -1, **TSUMO}, "honba must be a whole number from 0 to 1000"),
        (PINFU, {"riichi_sticks": True, **TSUMO},
         "riichi_sticks must be a whole number from 0 to 1000"),
    ],
)  # fmt: skip
def test_impossible_requests_are_refused_naming_the_fields(
    hand: str, fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(CompanionError) as refusal:
        riichi(hand, win_tile=fields.pop("win_tile", "4m"), **fields)
    assert refusal.value.message.startswith(message)


def test_on_equal_points_a_yakuman_is_kept_before_a_counted_one() -> None:
    # 111m222m333m as three pungs is suuankou; as three 123m chows, with riichi, iipeikou,
    # chanta, honitsu, the seat's South and 5 dora, 14 han: a counted yakuman, as much.
    result = riichi("111222333m22244z", win_tile="2m", events=["riichi"], dora="1m",
                    ura_dora="3z", **TSUMO)  # fmt: skip
    assert (ids(result), result.limit, result.call) == (["suuankou"], "yakuman", "8000-16000")


# ---------------------------------------------------------------------------------------------
# Liability

DAISANGEN = "555z666z777z123m99s"


def test_the_liable_seat_pays_a_self_drawn_daisangen_and_the_honba() -> None:
    result = riichi(DAISANGEN, win_tile="9s", liable="W", honba=1, **TSUMO)
    assert result.call == "8000-16000"
    assert result.payments == {Wind.EAST: 0, Wind.SOUTH: 32300, Wind.WEST: -32300, Wind.NORTH: 0}


def test_on_a_discard_the_liable_seat_and_the_discarder_pay_half_each() -> None:
    result = riichi(DAISANGEN, win_tile="9s", liable="W", honba=1, **RON)
    assert result.payments == {
        Wind.EAST: 0,
        Wind.SOUTH: 32300,
        Wind.WEST: -16000,
        Wind.NORTH: -16300,
    }
    own = riichi(DAISANGEN, win_tile="9s", liable="N", **RON)
    assert own.payments[Wind.NORTH] == -32000


def test_liability_covers_only_its_yakuman_of_several() -> None:
    # Daisangen, tsuuiisou and suuankou: the liable West pays for the daisangen, and the
    # other two are a self-draw paid by all.
    result = riichi("555z666z777z111z22z", win_tile="1z", liable="W", **TSUMO)
    assert result.yakuman == 3
    assert result.payments == {
        Wind.EAST: -32000,
        Wind.SOUTH: 96000,
        Wind.WEST: -48000,
        Wind.NORTH: -16000,
    }


@pytest.mark.parametrize(
    ("liable", "message"),
    [
        ("S", "liable: the winner cannot be the seat that pays for the hand"),
        ("W", "liable: a seat pays for the hand only for a daisangen or a daisuushii"),
    ],
)
def test_liability_refused(liable: str, message: str) -> None:
    hand = DAISANGEN if liable == "S" else PINFU
    with pytest.raises(NotAWinError) as refusal:
        riichi(hand, win_tile="9s", liable=liable, **TSUMO)
    assert refusal.value.message == message


# ---------------------------------------------------------------------------------------------
# Several winners on one discard


def test_several_winners_are_each_paid_and_the_first_in_turn_takes_honba_and_deposits() -> None:
    # North discards; East is first in turn after North, then South.
    south = {"hand": PINFU, "win_tile": "4m", "seat": "S"}
    east = {"hand": "123m456p789s99s", "melds": ["pung 555z"], "win_tile": "9s", "seat": "E"}
    first, second = score_several_riichi([south, east], discarder="N", honba=1, riichi_sticks=2)
    assert (first.call, first.deposits) == ("1500", 2000)
    assert first.payments == {Wind.EAST: 1800, Wind.SOUTH: 0, Wind.WEST: 0, Wind.NORTH: -1800}
    assert (second.call, second.deposits) == ("1000", 0)
    assert second.payments == {Wind.EAST: 0, Wind.SOUTH: 1000, Wind.WEST: 0, Wind.NORTH: -1000}


def test_with_head_bump_only_the_first_in_turn_wins() -> None:
    south = {"hand": PINFU, "win_tile": "4m", "seat": "S"}
    west = {"hand": PINFU, "win_tile": "4m", "seat": "W"}
    results = score_several_riichi(
        [west, south], discarder="E", options={"preset": "mleague"}, riichi_sticks=1
    )
    assert [(r.call, r.deposits, r.payments[Wind.SOUTH]) for r in results] == [("1000", 1000, 1000)]


@pytest.mark.parametrize(
    ("winners", "message"),
    [
        ([], "winners: at least one winner"),
        (
            [{"hand": PINFU, "seat": "S"}, {"hand": PINFU, "seat": "S"}],
            "winners: each seat wins once",
        ),
        ([{"hand": PINFU, "seat": "S", "honba": 1}], "winners: honba is given once for all"),
        ([{"hand": PINFU, "seat": "N"}], "winners: the discarder cannot win on their own discard"),
    ],
)
def test_several_winners_refused(winners: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(CompanionError) as refusal:
        score_several_riichi(winners, discarder="N")
    assert refusal.value.message.startswith(message)


# ---------------------------------------------------------------------------------------------
# The waits of a hand one tile short


def test_each_wait_of_a_hand_one_short_with_what_it_scores() -> None:
    found = riichi_waits("123m456p789s23m99s", **RON)
    assert [(w.tile, w.result.call if w.result else None) for w in found] == [
        ("1m", "2000"),
        ("4m", "1000"),
    ]
    assert [p.id for p in found[0].result.patterns] == ["pinfu", "iipeikou"]  # type: ignore[union-attr]


def test_a_wait_with_no_yaku_says_so() -> None:
    (only,) = riichi_waits("123m456p789s5m", melds=["chow 234m"], **RON)
    assert (only.tile, only.result, only.refusal) == (
        "5m",
        None,
        "not a win: no yaku (dora are not yaku)",
    )


def test_thirteen_orphans_waits_on_all_thirteen() -> None:
    found = riichi_waits("19m19p19s1234567z", **TSUMO)
    assert len(found) == 13
    assert {w.result.patterns[0].id for w in found if w.result} == {"kokushi_13"}
