# ruff: noqa: RUF001  (the Chinese messages are written with full-width punctuation, on purpose)
"""The message catalogues (src/companion/web/locale/*/LC_MESSAGES/messages.po): every language
has every key with the same {fields}, every translation renders the English it says it does,
every key the pages use exists, and the reviewed Simplified Chinese terms."""

from __future__ import annotations

import dataclasses
import fnmatch
import re
import tomllib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.profiles import all_profiles
from companion.context import Circumstance
from companion.rules import profiles
from companion.tiles import Tile
from companion.web import i18n
from companion.web.templating import STATIC_DIR, TEMPLATES_DIR

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.EN]


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_there_is_one_catalogue_file_per_language() -> None:
    files = sorted(path.relative_to(i18n.LOCALE_DIR) for path in i18n.LOCALE_DIR.rglob("*.po"))
    assert [str(path) for path in files] == [
        "en/LC_MESSAGES/messages.po",
        "zh_Hans/LC_MESSAGES/messages.po",
        "zh_Hant/LC_MESSAGES/messages.po",
    ]
    assert i18n.LANGUAGES == ("en", "zh-Hant", "zh-Hans")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_language_has_every_key_with_the_same_fields(lang: str) -> None:
    english = i18n.catalogues()[i18n.EN].messages
    translated = i18n.catalogues()[lang].messages
    assert sorted(set(english) - set(translated)) == [], "missing"
    assert sorted(set(translated) - set(english)) == [], "not in the English catalogue"
    for key, text in translated.items():
        assert text.strip() and english[key].strip(), key
        assert _fields(text) == _fields(english[key]), key


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_renders_the_current_english(lang: str) -> None:
    """Each entry's `#.` comment is the English it translates: when the English changes, the
    comment (and the translation, reviewed) must change with it. A comment keeps no leading or
    trailing spaces (`table.ev.and` is " and "), so both are compared word by word."""
    english = i18n.catalogues()[i18n.EN].messages
    sources = i18n.catalogues()[lang].sources
    stale = sorted(key for key in english if sources.get(key, "").split() != english[key].split())
    assert stale == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_pattern_and_tile_has_a_name(lang: str) -> None:
    catalogue = i18n.catalogues()[lang]
    for profile in profiles().values():
        for pattern_id in profile.pattern_ids():
            name = catalogue.patterns.get(f"{profile.id}:{pattern_id}") or catalogue.patterns.get(
                pattern_id, ""
            )
            assert name.strip(), f"{profile.id}: {pattern_id}"
    names = i18n.tile_names(lang)
    assert sorted(names) == sorted(tile.mpsz for tile in Tile)
    assert len(set(names.values())) == len(Tile), "two tiles with one name"


def test_the_english_names_come_from_the_engine() -> None:
    assert i18n.pattern_names("en") == {}
    assert i18n.tile_names("en") == {tile.mpsz: tile.english for tile in Tile}


def test_every_key_the_pages_use_is_in_the_catalogue() -> None:
    used: set[str] = set()
    for template in TEMPLATES_DIR.rglob("*.html"):
        used |= set(re.findall(r"\bt\('([\w.-]+)'\s*[,)]", template.read_text()))
    for script in STATIC_DIR.rglob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.-]+)"\s*[,)]', script.read_text()))
    assert used, "no keys found"
    missing = sorted(key for key in used if key not in i18n.catalogue("en"))
    assert not missing


def test_dynamic_keys_exist() -> None:
    """Keys the scripts build from values: seats, winds, modes, groups, roles, events, options."""
    messages = i18n.catalogue("en")
    for wind in "ESWN":
        assert f"seat.{wind}" in messages and f"wind.{wind}" in messages
    for kind in ("chow", "pung", "kong", "akong", "ckong"):
        assert f"meld.{kind}" in messages
    for mode in ("tile", "chow", "pung", "kong", "akong", "ckong"):
        assert f"mode.{mode}" in messages
    for suit in "mpszfa":
        assert f"suit.{suit}" in messages
    for role in ("pair", "pung", "two_sided", "closed", "edge", "single"):
        assert f"role.{role}" in messages
    for profile in profiles().values():
        assert f"profile.{profile.id}" in messages
        options = profile.parse_options({})
        for field in dataclasses.fields(options):
            if field.name not in ("tai_overrides", "chart", *options.derived):
                own, shared = f"option.{profile.id}.{field.name}", f"option.{field.name}"
                assert own in messages or shared in messages, field.name
        for kind in profile.flower_wins:
            assert f"flower_win.{kind.value}" in messages
    for circumstance in Circumstance:
        assert f"event.{circumstance.value}" in messages


def test_tile_names() -> None:
    assert i18n.tile_name(Tile.M1, "zh-Hant") == "一萬"
    assert i18n.tile_name(Tile.M1, "zh-Hans") == "一万"
    assert i18n.tile_name(Tile.RED, "zh-Hant") == "紅中"
    assert i18n.tile_name(Tile.RED, "zh-Hans") == "红中"
    assert i18n.tile_name(Tile.GREEN, "zh-Hant") == "青發"
    assert i18n.tile_name(Tile.GREEN, "zh-Hans") == "发财"
    assert i18n.tile_name(Tile.CENTIPEDE, "zh-Hans") == "蜈蚣"
    assert i18n.tile_name(Tile.ROOSTER, "zh-Hans") == "鸡"
    assert i18n.tile_name(Tile.P5, "en") == "5 of circles"


def test_translate() -> None:
    assert i18n.translate("en", "result.tai", n=3) == "3 tai"
    assert i18n.translate("zh-Hant", "result.tai", n=3) == "3 台"
    assert i18n.translate("zh-Hans", "result.tai", "faan", n=3) == "3 番"
    assert i18n.translate("en", "no.such.key") == "no.such.key"
    t = i18n.Translator("xx")
    assert t.lang == "en"
    assert t.get("profile.nope", "fallback") == "fallback"


# Terms a Simplified Chinese reader at a Singapore, Malaysia or Mainland table uses, where they
# are not the Traditional text's characters converted one by one (docs/web.md's glossary).
REVIEWED_TERMS = {
    "mode.kong": "明杠",
    "meld.akong": "加杠",
    "mode.pung": "碰",
    "mode.chow": "吃",
    "ctx.self_draw": "自摸",
    "ctx.discard": "别人放炮",
    "ctx.dealer": "庄家",
    "table.ev.draw": "流局",
    "ctx.liable": "包牌（一家全付）",
    "result.tai": "{n} 台",
    "result.tai@faan": "{n} 番",
    "option.min_faan": "起胡番数（不计花番）",
    "nav.calculator": "计分器",
    "table.write_link": "记分链接",
    "table.live": "实时",
}
REVIEWED_PATTERNS = {
    "ping_hu": "平胡",
    "all_terminals": "清幺九",
    "thirteen_orphans": "十三幺",
    "replacement_win": "杠上开花",
    "seven_pairs": "七对",
}
# Traditional forms that have a different Simplified form: none may be left in zh-Hans.
TRADITIONAL_ONLY = "槓莊聽張萬東發紅對門開搶撈魚風體記計設連結網頁裝們這個輸贏兩錢糊銃麼"


def test_the_reviewed_simplified_terms() -> None:
    catalogue = i18n.catalogues()[i18n.ZH_HANS]
    assert {key: catalogue.messages[key] for key in REVIEWED_TERMS} == REVIEWED_TERMS
    assert {key: catalogue.patterns[key] for key in REVIEWED_PATTERNS} == REVIEWED_PATTERNS


def test_no_traditional_character_is_left_in_simplified() -> None:
    catalogue = i18n.catalogues()[i18n.ZH_HANS]
    texts = {**catalogue.messages, **catalogue.patterns, **catalogue.tiles}
    left = {key: text for key, text in texts.items() if set(text) & set(TRADITIONAL_ONLY)}
    assert left == {}


# --- Option labels: per profile, the pattern's value from the profile -----------------------


def _option(profile_id: str, name: str) -> dict[str, object]:
    [profile] = [info for info in all_profiles() if info["id"] == profile_id]
    [option] = [option for option in profile["options"] if option["name"] == name]
    return dict(option)


def test_an_option_that_admits_a_pattern_carries_its_value() -> None:
    option = _option("hk", "seven_pairs")
    assert (option["pattern"], option["value"]) == ("seven_pairs", 4)
    assert "value" not in _option("hk", "min_faan")


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("en", "Seven pairs is a win (4 faan)"),
        ("zh-Hant", "七對子可以糊（4 番）"),
        ("zh-Hans", "七对可以胡（4 番）"),
    ],
)
def test_hk_seven_pairs_label_shows_the_profiles_value(lang: str, label: str) -> None:
    assert i18n.Translator(lang, "faan").option_label("hk", _option("hk", "seven_pairs")) == label


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("en", "Seven pairs is a win (3 tai)"),
        ("zh-Hant", "七對子可以胡（3 台）"),
        ("zh-Hans", "七对可以胡（3 台）"),
    ],
)
def test_sg_seven_pairs_label(lang: str, label: str) -> None:
    """sg's seven_pairs option (3 tai) uses the shared label; hk's has its own (Cantonese 糊)."""
    option = {"name": "seven_pairs", "type": "bool", "pattern": "seven_pairs", "value": 3}
    assert i18n.Translator(lang).option_label("sg", option) == label


def test_no_option_label_writes_a_value_in() -> None:
    """Values come from the profile's option entry, so no message names one."""
    for lang in i18n.LANGUAGES:
        for key, text in i18n.catalogue(lang).items():
            if key.startswith("option.") and key != "option.max_faan":
                assert not re.search(r"\d+ ?(tai|faan|台|番)", text), (lang, key, text)


def test_an_option_without_a_value_keeps_its_label() -> None:
    option = {"name": "min_faan", "type": "int"}
    assert i18n.Translator("zh-Hans", "faan").option_label("hk", option) == "起胡番数（不计花番）"
    unknown = {"name": "new_rule", "type": "bool"}
    assert i18n.Translator("en").option_label("sg", unknown) == "new rule"


def test_the_catalogues_are_packaged() -> None:
    """The wheel ships the .po files: pyproject's package-data names every one."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["companion"]
    package = ROOT / "src" / "companion"
    for lang in i18n.LANGUAGES:
        path = str(i18n.catalogue_path(lang).relative_to(package))
        assert any(fnmatch.fnmatch(path, pattern) for pattern in patterns), path
    assert "babel" in (ROOT / "pyproject.toml").read_text().split("[project.optional")[0]


@pytest.mark.parametrize(
    ("lang", "label"),
    [("en", "Seven pairs is a win (4 faan)"), ("zh-Hans", "七对可以胡（4 番）")],
)
def test_the_create_form_shows_hk_seven_pairs_with_its_value(lang: str, label: str) -> None:
    page = TestClient(create_app()).get(f"/tables?lang={lang}").text
    assert f"<span>{label}</span>" in page
