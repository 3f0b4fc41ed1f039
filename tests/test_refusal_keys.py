"""The common refusals carry a stable key and their parameters beside the English (issue 23):
the result JSON's `error_key` and `error_params`, the HTTP error bodies', the table API's. The
English `error` is unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.errors import InvalidRequestError, NotAWinError, TileParseError
from companion.rules import get_profile
from companion.scoring import check_one_discard, score
from companion.tiles import Wind, english_list, parse_tile
from companion.web import i18n
from refusal_sites import SOURCE, sites, without_key

SG = {"profile": "sg"}


@pytest.mark.parametrize(
    ("request_", "error", "key", "params"),
    [
        (
            {"hand": "123456789m123p57s"},
            "123456789m123p57s is not a winning hand: it is not four sets and a pair or "
            "Thirteen Orphans",
            "refusal.not_a_win",
            {
                "tiles": [f"{n}m" for n in range(1, 10)] + ["1p", "2p", "3p", "5s", "7s"],
                "shapes": ["sets_4", "thirteen_orphans"],
            },
        ),
        (
            {"hand": "123456789m123p5s"},
            "13 tiles: one tile short of a winning hand; it waits on 5s (5 of bamboo)",
            "refusal.one_short",
            {"count": 13, "wait_tiles": ["5s"]},
        ),
        (
            {"hand": "123456789m159p5s"},
            "13 tiles: one tile short of a winning hand; no tile completes it",
            "refusal.one_short_no_waits",
            {"count": 13, "wait_tiles": []},
        ),
        (
            {"hand": "11m234m567m999p", "melds": ["pung 111m"]},
            "1 of characters (1m) appears 5 times counting declared groups; there are four",
            "refusal.fifth_copy",
            {"tile": "1m", "count": 5},
        ),
        (
            {"hand": "123456789m12p"},
            "the hand has 11 structural tiles, but a hand of four sets and a pair has 14",
            "refusal.tile_count",
            {"count": 11, "expected": 14},
        ),
        (
            {"hand": "123456789m123p55s", "win_tile": "9p"},
            "the winning tile 9 of circles (9p) is not among the concealed tiles",
            "refusal.winning_tile_missing",
            {"tile": "9p"},
        ),
        (
            {"profile": "hk", "hand": "123456789m123p55s", "bonus": "1a2a"},
            "animal tiles are not Hong Kong tiles: take out cat, mouse",
            "refusal.hk_animals",
            {"tiles": ["1a", "2a"]},
        ),
        (
            {"hand": "123456789m123p55s", "win": "discard", "discarder": "E", "seat": "E"},
            "the winner cannot win on their own discard",
            "refusal.own_discard",
            {},
        ),
        (
            {"hand": "123456789m123p55s", "discarder": "S"},
            "a self-drawn win has no discarder",
            "refusal.self_draw_discarder",
            {},
        ),
    ],
)
def test_a_refusal_has_its_key_and_params(
    request_: dict[str, Any], error: str, key: str, params: dict[str, Any]
) -> None:
    data = score({**SG, **request_}).to_json()
    assert data["valid"] is False
    assert (data["error"], data["error_key"], data["error_params"]) == (error, key, params)


def test_several_problems_at_once_have_no_key() -> None:
    data = score({"hand": "11111m"}).to_json()
    assert data["error"] == (
        "the hand has 5 structural tiles, but a hand of four sets and a pair has 14; 1 of "
        "characters (1m) appears 5 times counting declared groups; there are four"
    )
    assert "error_key" not in data


def test_an_http_refusal_carries_its_key(client: TestClient) -> None:
    response = client.post("/api/score", json={"hand": "123456789m123p55s", "win": "discard"})
    assert response.status_code == 422
    assert response.json() == {
        "error": "a discard win needs the discarder's seat",
        "error_key": "refusal.no_discarder",
        "error_params": {},
    }
    # A refusal without a key is as before.
    response = client.post("/api/score", json={"hand": "123456789m123p55s", "seat": "X"})
    assert set(response.json()) == {"error"}


def test_the_table_preview_carries_the_hand_s_refusal(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"profile": "hk", "players": ["Ann", "Ben", "Cat", "Dan"]}
    ).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    url = f"/api/tables/{created['id']}/preview"
    hand = {"hand": "123456789m123p57s"}
    entry = {"kind": "win", "winner": "Ann", "from": "Ben", "hand": hand}
    data = client.post(url, json=entry, headers=headers).json()
    assert data["recordable"] is False
    assert data["error"] == (
        "Ann's hand is not a win: 123456789m123p57s is not a winning hand: it is not four sets "
        "and a pair or Thirteen Orphans"
    )
    assert data["error_key"] == "refusal.not_a_win"
    assert data["error_params"]["tiles"][-2:] == ["5s", "7s"]
    # Common hand, Concealed hand and No flowers: 3 faan, 2 of them toward the minimum.
    entry["hand"] = {"hand": "123m234m456p789s55p"}
    data = client.post(url, json=entry, headers=headers).json()
    assert data["recordable"] is False
    assert data["error"] == (
        "Ann's hand is under the table's minimum (2 of the 3 faan count toward the table's "
        "minimum of 3; No flowers does not): a hand under the minimum pays nothing and is not "
        "recorded as a win"
    )
    assert (data["error_key"], data["error_params"]) == (
        "minimum.left_out",
        {"counted": 2, "total": 3, "minimum": 3, "left_out_patterns": ["no_flowers"]},
    )


KEYS = [
    "refusal.not_a_win",
    "refusal.one_short",
    "refusal.one_short_no_waits",
    "refusal.fifth_copy",
    "refusal.tile_count",
    "refusal.tile_count_waiting",
    "refusal.no_winning_tile",
    "refusal.winning_tile_missing",
    "refusal.no_hand",
    "refusal.hk_animals",
    "refusal.no_discarder",
    "refusal.own_discard",
    "refusal.self_draw_discarder",
    "minimum.short",
    "minimum.left_out",
    *(f"shape.{shape}" for shape in ("sets_4", "sets_5", "thirteen_orphans", "seven_pairs")),
    "shape.seven_pairs_triplet",
]


def test_every_key_has_a_message_in_every_language() -> None:
    # docs/contract.md's table of the keys is written from the catalogue (`make docs`).
    for lang in i18n.LANGUAGES:
        messages = i18n.catalogue(lang)
        assert [key for key in KEYS if key not in messages] == [], lang
    assert (
        i18n.translate(
            "zh-Hant",
            "minimum.left_out",
            "faan",
            counted=2,
            total=3,
            minimum=3,
            left_out_patterns="無花",
        )
        == "3番中只有2番計入本桌起糊的3番；無花不計。"  # noqa: RUF001
    )


# --- Every keyed refusal, said by the catalogue as the engine says it ------------------------
# Each case is a real request that meets one refusal. The English catalogue message, its params
# filled in as the engine writes them, is the engine's `error` word for word: the English
# message holds everything the refusal says, so a translation from it says it all too.

HAND = "123456789m123p55s"
TW_HAND = "123456789m123p55s789s"
D = {"win": "discard"}
MCR = {"profile": "mcr", "hand": "123m456p789s11z", "melds": ["pung 777z"], "win_tile": "6p"}

WALK: list[tuple[str, dict[str, Any]]] = [
    ("refusal.robbing_kong_self_draw", {"hand": HAND, "events": ["robbing_kong"]}),
    ("refusal.heavenly_not_dealer", {"hand": HAND, "events": ["heavenly"], "seat": "S"}),
    ("refusal.heavenly_discard", {"hand": HAND, "events": ["heavenly"], **D, "discarder": "S"}),
    ("refusal.heavenly_events", {"hand": HAND, "events": ["heavenly", "last_tile"]}),
    ("refusal.heavenly_discards", {"hand": HAND, "events": ["heavenly"], "table_discards": 3}),
    ("refusal.earthly_dealer", {"hand": HAND, "events": ["earthly"]}),
    (
        "refusal.earthly_self_draw",
        {"profile": "tw", "hand": TW_HAND, "events": ["earthly"], "seat": "S"},
    ),
    (
        "refusal.earthly_discarder",
        {"hand": HAND, "events": ["earthly"], "seat": "S", **D, "discarder": "W"},
    ),
    ("refusal.earthly_events", {"hand": HAND, "events": ["earthly", "last_tile"], "seat": "S"}),
    (
        "refusal.earthly_discards",
        {
            "hand": HAND,
            "events": ["earthly"],
            "seat": "S",
            **D,
            "discarder": "E",
            "table_discards": 2,
        },
    ),
    ("refusal.discards_zero", {"hand": HAND, **D, "discarder": "S", "table_discards": 0}),
    ("refusal.discards_one", {"hand": HAND, **D, "discarder": "S", "table_discards": 1}),
    ("refusal.discards_none_drawn", {"hand": HAND, "seat": "S", "table_discards": 0}),
    (
        "refusal.kong_on_kong_kongs",
        {"hand": "456789m123p55s", "melds": ["kong 1111m"], "events": ["kong_on_kong"]},
    ),
    ("refusal.replacement_nothing", {"hand": HAND, "events": ["replacement"]}),
    (
        "refusal.heavenly_melds",
        {"hand": "456789m123p55s", "melds": ["pung 111m"], "events": ["heavenly"]},
    ),
    (
        "refusal.earthly_discard_melds",
        {
            "hand": "456789m123p55s",
            "melds": ["ckong 1111m"],
            "events": ["earthly"],
            "seat": "S",
            **D,
            "discarder": "E",
        },
    ),
    (
        "refusal.earthly_melds",
        {"hand": "456789m123p55s", "melds": ["chow 123m"], "events": ["earthly"], "seat": "S"},
    ),
    (
        "refusal.robbing_kong_copies",
        {
            "hand": "123456789m123p55s",
            "win_tile": "5s",
            "events": ["robbing_kong"],
            **D,
            "discarder": "S",
        },
    ),
    (
        "refusal.seven_flowers_self_draw",
        {"flower_win": "seven_capture", "win": "self_draw", "bonus": "1f2f3f4f5f6f7f"},
    ),
    (
        "refusal.eight_flowers_discard",
        {"flower_win": "eight", **D, "discarder": "S", "bonus": "1f2f3f4f5f6f7f8f"},
    ),
    (
        "refusal.seven_flowers_no_holder",
        {"flower_win": "seven_capture", **D, "bonus": "1f2f3f4f5f6f7f"},
    ),
    ("refusal.no_pay_for_all", {"hand": HAND, "liable": "S"}),
    ("refusal.liable_winner", {"profile": "sg-table", "hand": HAND, "liable": "E"}),
    ("refusal.tw_thirteen_orphans", {"profile": "tw", "hand": "19m19p19s12345677z"}),
    ("refusal.tw_fourteen_tiles", {"profile": "tw", "hand": HAND}),
    (
        "refusal.flower_win_events",
        {
            "profile": "tw",
            "flower_win": "eight",
            "events": ["last_tile"],
            "bonus": "1f2f3f4f5f6f7f8f",
        },
    ),
    (
        "refusal.unscored_event_pattern",
        {"profile": "tw", "hand": TW_HAND, "events": ["kong_on_kong"]},
    ),
    (
        "refusal.last_tile_discard",
        {"profile": "tw", "hand": TW_HAND, "events": ["last_tile"], **D, "discarder": "S"},
    ),
    (
        "refusal.last_discard_self_draw",
        {"profile": "tw", "hand": TW_HAND, "events": ["last_discard"]},
    ),
    ("refusal.tw_animals", {"profile": "tw", "hand": TW_HAND, "bonus": "1a2a"}),
    (
        "refusal.original_ready_melds",
        {
            "profile": "tw",
            "hand": "456789m123p55s789s",
            "melds": ["chow 123m"],
            "events": ["original_ready"],
        },
    ),
    (
        "refusal.eight_flowers_in_hand",
        {"profile": "tw", "hand": TW_HAND, "bonus": "1f2f3f4f5f6f7f8f"},
    ),
    (
        "refusal.exposed_self_draw",
        {
            "profile": "tw",
            "hand": "55s",
            "melds": ["chow 123m", "chow 456m", "chow 789m", "chow 123p", "chow 789s"],
        },
    ),
    ("refusal.unscored_event", {"profile": "sg", "hand": HAND, "events": ["original_ready"]}),
    ("refusal.drawn_event_discard", {"hand": HAND, "events": ["last_tile"], **D, "discarder": "S"}),
    (
        "refusal.hk_replacement",
        {"profile": "hk", "hand": HAND, "bonus": "1f", "events": ["replacement"]},
    ),
    (
        "refusal.no_flower_wins",
        {"profile": "hk", "flower_win": "eight", "bonus": "1f2f3f4f5f6f7f8f"},
    ),
    (
        "refusal.discards_too_few_one",
        {"hand": "456789m123p55s", "melds": ["chow 123m"], "table_discards": 0},
    ),
    (
        "refusal.discards_too_few",
        {
            "hand": "789m123p55s",
            "melds": ["chow 123m", "pung 555m"],
            "seat": "S",
            "table_discards": 1,
        },
    ),
    (
        "refusal.discards_too_few_one_discard",
        {
            "hand": "456789m123p55s",
            "melds": ["chow 123m"],
            "seat": "S",
            **D,
            "discarder": "E",
            "table_discards": 1,
        },
    ),
    (
        "refusal.discards_too_few_discard",
        {
            "hand": "789m123p55s",
            "melds": ["chow 123m", "pung 555m"],
            "seat": "S",
            **D,
            "discarder": "W",
            "table_discards": 2,
        },
    ),
    (
        "refusal.flower_win_count",
        {"profile": "sg-table", "flower_win": "eight", "bonus": "1f2f3f4f5f6f7f"},
    ),
    ("refusal.dealer_streak_negative", {"hand": HAND, "dealer_streak": -1}),
    ("refusal.table_discards_negative", {"hand": HAND, "table_discards": -1}),
    ("refusal.dealer_streak_at_most", {"hand": HAND, "dealer_streak": 100_001}),
    ("refusal.flower_win_hand", {"profile": "sg-table", "flower_win": "eight", "hand": HAND}),
    (
        "refusal.flower_win_melds",
        {"profile": "sg-table", "flower_win": "eight", "melds": ["pung 111m"]},
    ),
    (
        "refusal.flower_win_hand_melds",
        {"profile": "sg-table", "flower_win": "eight", "hand": "55s", "melds": ["pung 111m"]},
    ),
    ("refusal.unknown_tile", {"hand": "x123456789m123p55s"}),
    ("refusal.unknown_tile", {"hand": "123456789m123p55z8z"}),
    ("refusal.unknown_tile_suit", {"hand": "123456789m123p55"}),
    ("refusal.not_one_tile", {"hand": HAND, "win_tile": "5s5s"}),
    ("refusal.chow_start", {"hand": "456789m123p55s", "melds": ["chow 8m"]}),
    # MCR's own event refusals
    (
        "refusal.mcr_replacement_discard",
        {**MCR, "melds": ["kong 7777z"], "events": ["replacement"], **D, "discarder": "N"},
    ),
    ("refusal.mcr_replacement_no_kong", {**MCR, "events": ["replacement"]}),
    ("refusal.mcr_robbing_kong_self_draw", {**MCR, "events": ["robbing_kong"]}),
    (
        "refusal.mcr_robbing_kong_copies",
        {**MCR, "win_tile": "1z", "events": ["robbing_kong"], **D, "discarder": "N"},
    ),
    (
        "refusal.mcr_robbing_kong_last_tile",
        {**MCR, "events": ["robbing_kong", "last_tile"], **D, "discarder": "N"},
    ),
    ("refusal.mcr_last_copy_held", {**MCR, "win_tile": "1z", "events": ["last_copy"]}),
    ("refusal.mcr_not_a_win", {**MCR, "hand": "123m456p789s12z", "win_tile": "2z"}),
]


def _engine_english(name: str, value: Any, profile: str) -> str:
    """A parameter as the engine's English writes it."""
    if name.endswith("_patterns"):
        found = get_profile(profile)
        names = {p.id: p.name for p in (*found.patterns, *found.flower_wins.values())}
        return ", ".join(names[pattern] for pattern in value)
    if name == "tile" or name.endswith("_tile"):
        tile = parse_tile(value)
        return f"{tile.english} ({tile.mpsz})"
    if name == "tiles" or name.endswith("_tiles"):
        return english_list([parse_tile(tile) for tile in value])
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


@pytest.mark.parametrize(("key", "request_"), WALK, ids=[key for key, _ in WALK])
def test_every_keyed_refusal_is_its_english_message(key: str, request_: dict[str, Any]) -> None:
    try:
        data = score({**SG, **request_}).to_json()
    except InvalidRequestError as refusal:  # the HTTP API's 422, with the same three fields
        data = {"error": refusal.message, "error_key": refusal.key, "error_params": refusal.params}
    assert data.get("error_key") == key, data["error"]
    _says(key, data["error_params"], data["error"], request_.get("profile", "sg"))


def _says(key: str, params: dict[str, Any], error: str, profile: str) -> None:
    """The English message of `key` (in the profile's unit) with `params` is `error`; the
    Chinese say it in their own words."""
    unit = get_profile(profile).unit
    messages = i18n.catalogue("en")
    english = messages.get(f"{key}@{unit}", messages[key])
    fields = {name: _engine_english(name, value, profile) for name, value in params.items()}
    assert english.format_map(fields) == error
    for lang in (i18n.ZH_HANT, i18n.ZH_HANS):
        assert i18n.catalogue(lang)[key] != messages[key], lang


AGREED = [
    ("refusal.agreed_negative", "sg", -1),
    ("refusal.agreed_negative", "hk", -1),
    ("refusal.agreed_over_cap", "sg", 6),
    ("refusal.agreed_over_cap", "hk", 14),
    ("refusal.agreed_over_cap_limits", "sg-table", 7),
    ("refusal.agreed_too_many", "tw", 1_001),
    ("refusal.agreed_negative", "mcr", -1),
    ("refusal.agreed_too_many", "mcr", 1_001),
    ("refusal.mcr_minimum", "mcr", 7),
]


@pytest.mark.parametrize(("key", "profile", "count"), AGREED)
def test_an_agreed_count_out_of_range(key: str, profile: str, count: int) -> None:
    # A table's quick win: the agreed tai or faan, without the hand (the ledger asks this).
    found = get_profile(profile)
    with pytest.raises(InvalidRequestError) as refused:
        found.agreed_value(count, found.parse_options({}))
    assert refused.value.key == key
    _says(key, dict(refused.value.params), refused.value.message, profile)


def test_a_riichi_hand_without_a_yaku() -> None:
    result = score(
        {"profile": "riichi", "hand": "111m234p567s789s22z", "win": "discard", "discarder": "W"}
    )
    assert (result.error_key, result.error_params) == ("refusal.no_yaku", {})
    assert result.error is not None
    _says("refusal.no_yaku", {}, result.error, "riichi")


def test_a_table_of_a_profile_that_keeps_none(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ledger.errors import LedgerError
    from companion.ledger.state import new_setup
    from companion.rules.mcr.profile import McrProfile

    # Every profile keeps tables now; one that scored hands without keeping them would be
    # refused so.
    monkeypatch.setattr(McrProfile, "keeps_tables", False)
    with pytest.raises(LedgerError) as refused:
        new_setup("mcr", ["Ann", "Ben", "Cy", "Di"])
    params = {"profile": "mcr", "profiles": "sg, sg-table, tw, hk, riichi, sanma"}
    assert (refused.value.key, refused.value.params) == ("refusal.no_tables", params)
    _says("refusal.no_tables", params, refused.value.message, "sg")


def test_a_wind_that_is_not_one() -> None:
    with pytest.raises(TileParseError) as refused:
        Wind.parse("X")
    assert (refused.value.key, refused.value.params) == ("refusal.not_a_wind", {"text": "X"})
    _says("refusal.not_a_wind", {"text": "X"}, refused.value.message, "sg")


def test_winners_of_one_discard_with_a_fifth_copy_between_them() -> None:
    # The table records several winners of one discard through check_one_discard.
    hand = {"profile": "tw", "hand": "111m456m789m123p789s55s", **D, "discarder": "E"}
    with pytest.raises(NotAWinError) as refused:
        check_one_discard([{**hand, "seat": "S"}, {**hand, "seat": "W"}])
    assert (refused.value.key, refused.value.params) == (
        "refusal.winners_copies",
        {"count": 6, "tile": "1m"},
    )
    _says("refusal.winners_copies", dict(refused.value.params), refused.value.message, "tw")


PHRASED_FOR_THE_PAGE = {
    # Keyed before the walk: their English messages say the refusal for the page in its own
    # words (the engine's "structural tiles" is "a kong counts as three"); each has a case above.
    *(key for key in KEYS if key.startswith("refusal.")),
    "refusal.or",
    "refusal.list_sep",
}


def test_the_walk_meets_every_refusal_key() -> None:
    # The events' refusals are met by tests/test_event_refusal_keys.py, the day's by
    # tests/test_event_day_refusals.py, the clubs' by tests/test_club_refusal_keys.py.
    keys = {
        key.split("@")[0]
        for key in i18n.catalogue("en")
        if key.startswith("refusal.")
        and not key.startswith(("refusal.event_", "refusal.day_", "refusal.club_"))
    }
    met = {key for key, _ in WALK} | {key for key, _, _ in AGREED}
    assert keys - PHRASED_FOR_THE_PAGE == met | {
        "refusal.winners_copies",
        "refusal.not_a_wind",
        "refusal.no_yaku",
        "refusal.no_tables",
        # A new table's names: met by tests/test_names.py.
        "refusal.table_same_name",
        "refusal.table_player_empty",
        # The rate limits of events' reads and seating: met by tests/test_event_limits.py.
        "refusal.too_many_reads",
        "refusal.too_many_seated",
        # A money table's stop: met by tests/test_money_stop.py.
        "refusal.table_stopped",
        "refusal.stop_nothing_played",
        "refusal.stop_fixed_game",
        "refusal.stop_by_amend",
    }


# --- The engine's raise sites that carry no key -----------------------------------------------
# A new refusal a player can meet gets a key; this list says which do not, and why. It lists
# each site by its file, its error and the opening of its message.

ENGINE_FILES = (
    "hand.py",
    "tiles.py",
    "request.py",
    "scoring.py",
    "rules/legality.py",
    "rules/profile.py",
    # Every module of the families scored by the shared engine, as their packages hold them.
    *(
        path.relative_to(SOURCE).as_posix()
        for family in ("singapore", "tw", "hk")
        for path in sorted((SOURCE / "rules" / family).glob("*.py"))
    ),
    "rules/mcr/engine.py",
    "rules/mcr/request.py",
)
REFUSALS = {"NotAWinError", "InvalidHandError", "TileParseError", "InvalidRequestError"}


WITHOUT_KEY = [
    # Several problems at once: the key is the one problem's when there is one (Problem).
    *sites("hand.py", "InvalidHandError", ""),
    # A page writes groups from its buttons: only known kinds reach the engine.
    *sites("hand.py", "TileParseError", 'unknown group "'),
    # JSON of the wrong type or an unknown name: a page's form never sends them.
    *sites(
        "request.py",
        "InvalidRequestError",
        " must be a string",
        "unknown ",
        " must be a wind: E, S, W or N (got ",
        "a scoring request must be a JSON object",
        "unknown field ",
        'melds must be a list of groups such as "pung 777z"',
        'bonus must be a string of tiles such as "1f5f"',
        " must be a whole number",
        "events must be a list",
        "options must be an object of option names and values",
        "unknown event ",
    ),
    # score_several: the command line's --multi only (a table checks its winners itself).
    *sites(
        "scoring.py",
        "InvalidRequestError",
        "several winners are a list of requests, one per winner",
        # a profile that reads its own requests (riichi), then the others
        "the winners of one discard must be scored in one profile",
        "the winners of one discard must be scored in one profile",
        "the ",
        "several winners share a discard: every request is a discard win",
        "several winners must name the same discarder",
        "each winner of one discard must sit in a different seat",
        "the winners of one discard must agree on ",
    ),
    # Winners of one discard who disagree: a list per seat ("E on 5s, S on 6s") that a
    # catalogue message cannot spell. A table meets them only when two winners' hands name
    # different winning tiles or events; they stay in English (left for later).
    *sites(
        "rules/legality.py",
        "NotAWinError",
        "the winners of one discard win on the same tile (win_tile): ",
        "the winners of one discard share its events: ",
    ),
    # MCR: options and event names a form picks from its lists; several event problems at
    # once (one alone has its key); bonus tiles the calculator's buttons do not offer (no
    # flowers without the option, no animals): left in English for later.
    *sites(
        "rules/mcr/request.py",
        "InvalidRequestError",
        'options: unknown option "',
        "options: ",
        'events: unknown event "',
        "bonus: flowers are not played (option flowers is off by default)",
        "bonus: mcr has flowers and seasons, no animals",
    ),
    *sites("rules/mcr/request.py", "NotAWinError", "; "),
    # The options' problems, joined: set when a table is created, from the form's choices.
    *sites("rules/profile.py", "InvalidRequestError", "; "),
    # A flower win the profile lacks: every profile with flower wins has both.
    *sites("rules/profile.py", "NotAWinError", "the "),
    # The chart option of sg-table: a JSON object, or a preset the form picks from a list.
    *sites(
        "rules/singapore/chart.py",
        "InvalidRequestError",
        "option chart must be a preset name or an object of discarder, others and "
        "self_draw amounts per tai",
        "option chart: unknown row ",
        "option chart: ",
        "option chart: ",
        'option chart: unknown preset "',
        "option chart needs a ",
    ),
]


def test_the_engine_s_refusals_without_a_key_are_the_listed_ones() -> None:
    found = without_key(ENGINE_FILES, REFUSALS)
    assert sorted(found) == sorted(WITHOUT_KEY)
