"""The `hk` profile wherever a profile goes: the command line, `/api/score` and `/api/profiles`,
the ledger's tables (rotation, quick entry by faan, whole-hand entry, settle-up) and the pages,
which say faan (番) for it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

import test_ledger_cli
from companion.ledger.build import build_outcome
from companion.ledger.entries import Entry, Outcome, outcome_text
from companion.ledger.errors import LedgerError, NotPayableWinError
from companion.ledger.records import WinnerRecord, WinRecord
from companion.ledger.replay import replay
from companion.ledger.settle import settle_up
from companion.ledger.state import new_setup
from companion.rules import profiles
from companion.scoring import score
from test_ledger_cli import run

# The CLI's fresh SQLite ledger (`url`), shared with the CLI's ledger tests; the app on a fresh
# SQLite ledger (`client`) comes from conftest.py.
url = test_ledger_cli.url

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
AT = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
CHOWS = "123m456p789s234m55p"
"""The issue's first hand: a concealed common hand; self-drawn, 4 faan (P = 16)."""


# --- the command line ----------------------------------------------------------------------


def test_score_reads_out_faan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", CHOWS, "--profile", "hk", "--seat", "S")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "hk: 4 faan"
    assert "  Common hand      1 faan      123m, 234m, 456p, 789s, 55p" in lines
    assert "  S pays" not in out and "  E pays S 16" in lines
    assert lines[-1] == "Net: E -16, S +48, W -16, N -16"


def test_score_json_on_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    request = {"profile": "hk", "hand": "19m19p19s1234567z1m", "options": {"base": "0.5"}}
    code, out, _ = run(capsys, "score", stdin=json.dumps(request))
    result = json.loads(out)
    assert code == 0
    assert (result["tai"], result["unit"]) == (13, "faan")
    assert result["payments"] == {"E": 576, "S": -192, "W": -192, "N": -192}


def test_other_profiles_say_tai(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", CHOWS, "--json")
    assert code == 0 and json.loads(out)["unit"] == "tai"
    code, out, _ = run(capsys, "score", "123m456p55s", "--melds", "pung 777z", "pung 666z")
    assert out.splitlines()[0] == "sg: 2 tai"


def test_waits_with_the_seven_pairs_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("waits", "11m22m33p44p55s66s7z", "--profile", "hk", "--json")
    assert json.loads(run(capsys, *argv)[1]) == {"waits": []}
    code, out, _ = run(capsys, *argv, "--option", "seven_pairs=true")
    assert code == 0 and json.loads(out) == {"waits": ["7z"]}
    code, out, _ = run(capsys, "waits", "123m456p789s234m5p", "--profile", "hk")
    assert out == "Waits: 5p (5 of circles)\n"


def test_a_bad_hk_option_is_a_clean_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", CHOWS, "--profile", "hk", "--option", "max_faan=9")
    assert (code, out) == (2, "")
    assert err == "companion: option max_faan must be 8, 10 or 13\n"


# --- the HTTP API ----------------------------------------------------------------------------


def test_api_score(client: TestClient) -> None:
    request = {
        "profile": "hk",
        "hand": "777m222m55m",
        "melds": ["pung 777z", "pung 444m"],
        "bonus": "2f",
        "win": "discard",
        "discarder": "N",
        "options": {"gun": "half"},
    }
    response = client.post("/api/score", json=request)
    assert response.status_code == 200
    data = response.json()
    assert (data["tai"], data["unit"], data["raw_tai"]) == (7, "faan", 7)
    assert data["payments"] == {"E": 96, "S": -24, "W": -24, "N": -48}
    sg = client.post("/api/score", json={"hand": CHOWS}).json()
    assert sg["unit"] == "tai"


def test_api_score_refuses_animals_and_bad_options(client: TestClient) -> None:
    animals = client.post("/api/score", json={"profile": "hk", "hand": CHOWS, "bonus": "1a"})
    assert animals.status_code == 200
    assert animals.json() == {
        "valid": False,
        "profile": "hk",
        "error": "animal tiles are not Hong Kong tiles: take out cat",
        "error_key": "refusal.hk_animals",
        "error_params": {"tiles": ["1a"]},
    }
    bad = client.post(
        "/api/score", json={"profile": "hk", "hand": CHOWS, "options": {"curve": "x"}}
    )
    assert bad.status_code == 422
    assert bad.json()["error"] == 'option curve must be "half_spicy" or "spicy", not "x"'


def test_api_waits_under_the_seven_pairs_option(client: TestClient) -> None:
    body = {"profile": "hk", "hand": "11m22m33p44p55s66s7z", "options": {"seven_pairs": True}}
    data = client.post("/api/waits", json=body).json()
    assert data["waits"] == ["7z"]
    assert data["scores"]["7z"]["tai"] == 7  # Seven pairs 4, Self-draw, Concealed, No flowers


def test_api_profiles_describe_hk(client: TestClient) -> None:
    [hk] = [p for p in client.get("/api/profiles").json() if p["id"] == "hk"]
    assert hk["unit"] == "faan" and hk["sets"] == 4 and hk["tiles"] == 14
    assert hk["animals"] is False
    assert "liable" in hk["fields"]
    options = {option["name"]: option for option in hk["options"]}
    assert list(options) == [
        "min_faan",
        "max_faan",
        "flowers_count_to_minimum",
        "great_dragons_limit",
        "seven_pairs",
        "base",
        "curve",
        "gun",
    ]
    assert options["curve"] == {
        "name": "curve",
        "type": "choice",
        "default": "half_spicy",
        "choices": ["half_spicy", "spicy"],
    }
    assert options["gun"]["choices"] == ["full", "half"]
    assert options["base"] == {"name": "base", "type": "number", "default": 1}
    assert set(hk["events"]) == {
        "replacement",
        "kong_on_kong",
        "robbing_kong",
        "last_tile",
        "heavenly",
        "earthly",
    }
    others = [p["unit"] for p in client.get("/api/profiles").json() if p["id"] != "hk"]
    assert others == ["tai", "tai", "tai", "han", "han", "fan"]


# --- the ledger --------------------------------------------------------------------------------


class HkTable:
    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.setup = new_setup("hk", PLAYERS, options)
        self.events: list[Entry] = []

    def record(
        self, *winners: WinnerRecord, by: str | None = None, liable: str | None = None
    ) -> Outcome:
        state = replay(self.setup, self.events).state
        outcome = build_outcome(self.setup, state, WinRecord(winners, by, liable))
        self.events.append(Entry(len(self.events) + 1, AT, outcome))
        return outcome


def test_quick_entry_by_faan_and_rotation_as_in_sg() -> None:
    table = HkTable()
    # Ann deals: 4 faan self-drawn, P = 16 from each; the dealer keeps the deal.
    first = table.record(WinnerRecord("Ann", tai=4))
    assert first.payments == (48, -16, -16, -16)
    assert outcome_text(PLAYERS, first) == "Ann wins 4 faan (agreed), self-drawn"
    # Ben wins 7 faan on Cat's discard: full gun, Cat pays 2P = 96; the deal passes to Ben.
    second = table.record(WinnerRecord("Ben", tai=7), by="Cat")
    assert second.payments == (0, 96, -96, 0)
    state = replay(table.setup, table.events).state
    assert (PLAYERS[state.dealer], state.hands) == ("Ben", 2)
    assert list(state.totals) == [48, 80, -112, -16]
    transfers = [(t.payer, t.payee, t.amount) for t in settle_up(state.totals)]
    assert sum(amount for _, _, amount in transfers) == 112 + 16
    assert {payer for payer, _, _ in transfers} == {2, 3}


def test_quick_entry_refuses_what_the_engine_would() -> None:
    table = HkTable({"max_faan": 8})
    with pytest.raises(LedgerError, match="a hk hand settles at 0 to 8 faan, not 13"):
        table.record(WinnerRecord("Ann", tai=13))
    with pytest.raises(NotPayableWinError, match="2 faan is under the table's minimum of 3"):
        table.record(WinnerRecord("Ann", tai=2))
    limit = table.record(WinnerRecord("Ann", tai=8))
    assert limit.payments == (192, -64, -64, -64)


def test_whole_hand_entry_with_a_half_stake_and_liability() -> None:
    table = HkTable({"base": "0.5", "gun": "half"})
    # Ben (South at the first hand) self-draws the common hand: 4 faan, P = 8; Dan pays all.
    outcome = table.record(WinnerRecord("Ben", hand={"hand": CHOWS}), liable="Dan")
    assert outcome.payments == (0, 24, 0, -24)
    [winner] = outcome.winners
    assert winner.tai == 4 and winner.request is not None
    assert ("Common hand", 1) in winner.patterns
    assert outcome.to_json()["unit"] == "faan"
    # Ben won, so Ben deals now and Cat sits South. Cat's hand on Ann's discard with South's
    # flower is 3 faan, 2 without the flower: refused and not recorded.
    with pytest.raises(NotPayableWinError) as refusal:
        table.record(WinnerRecord("Cat", hand={"hand": CHOWS, "bonus": "2f"}), by="Ann")
    assert refusal.value.message == (
        "Cat's hand is under the table's minimum (2 of the 3 faan count toward the table's "
        "minimum of 3; Seat flower or season does not): a hand under the minimum pays nothing "
        "and is not recorded as a win"
    )
    assert (refusal.value.key, refusal.value.params) == (
        "minimum.left_out",
        {"counted": 2, "total": 3, "minimum": 3, "left_out_patterns": ["seat_flower"]},
    )
    # Chows in characters and a pair of white dragons: Common hand 1 + Mixed one suit 3 +
    # Concealed hand 1 + No flowers 1 = 6 faan, P = 0.5 x M(6) = 16; half gun: Ann pays 16,
    # the others 8 each.
    half = table.record(WinnerRecord("Cat", hand={"hand": "123m456m789m234m55z"}), by="Ann")
    assert half.payments == (-16, -8, 32, -8)
    assert all(isinstance(amount, Fraction) for amount in half.payments)


def test_cli_table_session_in_faan(capsys: pytest.CaptureFixture[str], url: str) -> None:
    code, out, err = run(capsys, "table", "new", "--profile", "hk", "--players", ",".join(PLAYERS),
                         "--db", url)  # fmt: skip
    assert code == 0, err
    table = out.strip()
    code, out, err = run(capsys, "table", "win", table, "--winner", "Ann", "--self-draw",
                         "--faan", "4", "--db", url)  # fmt: skip
    assert code == 0, err
    assert "Ann wins 4 faan (agreed), self-drawn" in out
    code, out, err = run(capsys, "table", "win", table, "--winner", "Ben", "--from", "Ann",
                         "--faan", "1", "--db", url)  # fmt: skip
    assert code == 2
    assert "1 faan is under the table's minimum of 3" in err
    code, out, _ = run(capsys, "table", "history", table, "--db", url)
    assert code == 0 and "Ann wins 4 faan (agreed), self-drawn" in out  # read back from the DB
    code, out, _ = run(capsys, "table", "settle", table, "--db", url)
    assert code == 0
    assert "Ben pays Ann 16" in out and "Cat pays Ann 16" in out and "Dan pays Ann 16" in out


# --- the pages ---------------------------------------------------------------------------------


def new_table(client: TestClient, **options: Any) -> tuple[str, str]:
    body = {"profile": "hk", "players": PLAYERS, "options": options}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def visible(page: str) -> str:
    """The page without its script data (which holds every message, in tai and in faan)."""
    return re.sub(r'<script type="application/json".*?</script>', "", page, flags=re.S)


def page_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_table_page_says_faan(client: TestClient) -> None:
    table_id, token = new_table(client)
    body = {"kind": "win", "winner": "Ann", "self_draw": True, "tai": 4}
    headers = {"authorization": f"Bearer {token}"}
    assert client.post(f"/api/tables/{table_id}/hands", json=body, headers=headers).is_success
    english = visible(client.get(f"/t/{table_id}?lang=en").text)
    assert "Agreed faan" in english and "Ann wins 4 faan, self-drawn" in english
    assert "Agreed tai" not in english and "<legend>Tai</legend>" not in english
    assert "<legend>Faan</legend>" in english
    values = [str(n) for n in range(3, 14)]
    for value in values:
        assert f'name="tai" value="{value}"' in english
    assert 'name="tai" value="2"' not in english and 'name="tai" value="14"' not in english
    chinese = visible(client.get(f"/t/{table_id}?lang=zh-Hant").text)
    assert "直接輸入番數" in chinese and "Ann 自摸 4 番" in chinese
    assert "台數" not in chinese
    board = client.get(f"/t/{table_id}/board?lang=zh-Hant").text
    assert "Ann 自摸 4 番" in board


def test_an_sg_table_page_still_says_tai(client: TestClient) -> None:
    response = client.post("/api/tables", json={"profile": "sg", "players": PLAYERS})
    page = visible(client.get(f"/t/{response.json()['id']}?lang=en").text)
    assert "Agreed tai" in page and "Agreed faan" not in page


def test_the_create_form_offers_the_hk_options(client: TestClient) -> None:
    page = client.get("/tables?lang=en").text
    assert 'value="hk"' in page
    assert 'name="option:hk:max_faan"' in page and 'name="option:hk:min_tai"' not in page
    assert "Stake: one payment is the stake × the faan&#39;s multiple" in page  # noqa: RUF001
    assert "Half gun: the discarder pays one, each other player a half" in page
    chinese = client.get("/tables?lang=zh-Hant").text
    assert "香港老番・3–13 番（hk）" in chinese  # noqa: RUF001
    assert "半辣：1、2、4、8、16、24、32…" in chinese  # noqa: RUF001


def test_the_calculator_page_data_carries_the_faan_words(client: TestClient) -> None:
    page = client.get("/?lang=zh-Hant").text
    assert '<option value="hk" data-about="3–13 番">香港老番（hk）</option>' in page  # noqa: RUF001
    data = page_data(page)
    assert data["messages"]["result.tai@faan"] == "{n} 番"
    assert data["messages"]["calc.title@faan"] == "計算番數"
    [hk] = [profile for profile in data["profiles"] if profile["id"] == "hk"]
    assert hk["unit"] == "faan"


def test_every_faan_message_has_its_tai_message() -> None:
    from companion.web import i18n

    messages = i18n.catalogue("en")
    # A form for each unit a profile counts in besides tai: hk's faan, riichi's han, mcr's fan.
    units = {profile.unit for profile in profiles().values()} - {"tai"}
    assert units == {"faan", "han", "fan"}
    for key in messages:
        if "@" in key:
            plain, unit = key.split("@")
            assert unit in units and plain in messages, key
    t = i18n.Translator("zh-Hant", "faan")
    assert t("result.tai", n=5) == "5 番"
    assert t("ctx.win") == "胡法", "messages without a faan form are shared"
    assert i18n.Translator("en")("result.tai", n=5) == "5 tai"


def test_score_result_unit_is_in_the_json_of_valid_results_only() -> None:
    assert "unit" not in score({"profile": "hk", "hand": "123m"}).to_json()
