"""The web app's words in English, Traditional Chinese and Simplified Chinese.

The words live in gettext catalogues, one per language, in `locale/<id>/LC_MESSAGES/
messages.po` (`en`, `zh_Hant`, `zh_Hans`: the folder names Babel and gettext use), read with
Babel when a page first needs them. A message's msgid is the key the code uses: templates call
`t("key")`, scripts read the same messages from the page's JSON data block. A translated
catalogue keeps the English it renders as the entry's `#.` comment, so a change to the English
shows (tests/test_catalogues.py) which translations to review. Pattern names (msgctxt
`pattern`, by pattern id) and tile names (msgctxt `tile`, by MPSZ) come from the catalogue in
Chinese and from the engine in English. The engine's common refusals and the note on a hand
under the minimum carry a key and parameters (`error_key`/`error_params`, `short_of_minimum`):
the scripts say them from these catalogues (`refusal.*`, `shape.*`, `tiles.*`, `minimum.*`),
naming tiles as the page does; a refusal without a key, and the other notes, stay in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from companion.errors import CompanionError
from companion.tiles import Tile, Wind

EN = "en"
ZH_HANT = "zh-Hant"
ZH_HANS = "zh-Hans"
LANGUAGES: tuple[str, ...] = (EN, ZH_HANT, ZH_HANS)
DEFAULT_LANGUAGE = EN
LANGUAGE_NAMES: Mapping[str, str] = {EN: "English", ZH_HANT: "繁體中文", ZH_HANS: "简体中文"}
LANGUAGE_COOKIE = "companion_lang"

LOCALE_DIR = Path(__file__).with_name("locale")
CATALOGUE_IDS: Mapping[str, str] = {EN: "en", ZH_HANT: "zh_Hant", ZH_HANS: "zh_Hans"}
"""Each language's catalogue folder under `LOCALE_DIR` (Babel's locale identifiers)."""

PATTERN_CONTEXT = "pattern"
TILE_CONTEXT = "tile"

ZH_NUMERALS = "一二三四五六七八九"
"""One to nine: the ranks of the suit tiles, as the tile faces write them."""


@dataclass(frozen=True)
class Catalogue:
    """One language's words, as its catalogue file holds them."""

    messages: Mapping[str, str]
    """The text by message key."""
    patterns: Mapping[str, str]
    """Pattern names by pattern id, and by `profile:id` where a profile names a shared id its
    own way (none in English: the engine's names are English)."""
    tiles: Mapping[str, str]
    """Tile names by MPSZ (none in English: the engine's names are English)."""
    sources: Mapping[str, str]
    """The English that each message translates (its `#.` comment), by message key."""


def catalogue_path(lang: str) -> Path:
    return LOCALE_DIR / CATALOGUE_IDS[lang] / "LC_MESSAGES" / "messages.po"


def read_catalogue(path: Path) -> Catalogue:
    """A catalogue file's messages, pattern names and tile names."""
    with path.open("rb") as file:
        entries = read_po(file)
    found: dict[str | None, dict[str, str]] = {None: {}, PATTERN_CONTEXT: {}, TILE_CONTEXT: {}}
    sources: dict[str, str] = {}
    for entry in entries:
        if not entry.id or not isinstance(entry.id, str) or not isinstance(entry.string, str):
            continue  # the header, or a plural form (the catalogues use none)
        found.setdefault(entry.context, {})[entry.id] = entry.string
        if entry.context is None and entry.auto_comments:
            sources[entry.id] = " ".join(entry.auto_comments)
    patterns = dict(found[PATTERN_CONTEXT])
    # A profile's own name for a pattern (`msgctxt "pattern:mcr"`), where profiles share an id
    # but not a name, is kept as `mcr:<id>` beside the shared ones.
    for context, names in found.items():
        if context and context.startswith(PATTERN_CONTEXT + ":"):
            profile = context.split(":", 1)[1]
            patterns.update({f"{profile}:{key}": name for key, name in names.items()})
    return Catalogue(found[None], patterns, found[TILE_CONTEXT], sources)


@cache
def catalogues() -> Mapping[str, Catalogue]:
    """Every language's catalogue, read once (about 25 ms for the three)."""
    return {lang: read_catalogue(catalogue_path(lang)) for lang in LANGUAGES}


def _catalogue(lang: str) -> Catalogue:
    return catalogues()[lang if lang in CATALOGUE_IDS else DEFAULT_LANGUAGE]


def tile_name(tile: Tile, lang: str) -> str:
    """A tile's name for a person: `5 of bamboo`, `五索`."""
    return _catalogue(lang).tiles.get(tile.mpsz, tile.english)


# Accept-Language tags and `?lang=` values, lower-cased, by the script they mean. A region picks
# the script its readers use; plain `zh` and a region not listed mean Simplified, as Unicode's
# likely-subtags data (CLDR) has it: zh → zh-Hans-CN.
_TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})


def normalize_language(value: str | None) -> str | None:
    """A supported language for `value` (`en`, `zh-Hant`, `zh-TW`, `zh-CN`, `zh`...), else None."""
    if not value:
        return None
    parts = value.strip().lower().replace("_", "-").split("-")
    if parts[0] == "en":
        return EN
    if parts[0] != "zh":
        return None
    if "hant" in parts[1:]:
        return ZH_HANT
    if "hans" in parts[1:]:
        return ZH_HANS
    return ZH_HANT if _TRADITIONAL_REGIONS.intersection(parts[1:]) else ZH_HANS


def negotiate(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page language: the `lang` query parameter, then the cookie, then the browser's
    `Accept-Language`, then English."""
    for choice in (query, cookie):
        found = normalize_language(choice)
        if found:
            return found
    for part in (accept_language or "").split(","):
        found = normalize_language(part.split(";", 1)[0])
        if found:
            return found
    return DEFAULT_LANGUAGE


def translate(lang: str, key: str, unit: str = "tai", **fields: object) -> str:
    """The message `key` in `lang` (its `key@unit` form when there is one), its `{fields}`
    filled; the key itself if unknown."""
    messages = _catalogue(lang).messages
    text = messages.get(f"{key}@{unit}") or messages.get(key)
    if text is None:
        return key
    if fields:
        return text.format_map({name: str(value) for name, value in fields.items()})
    return text


class Translator:
    """`t("key", n=3)` in templates, bound to one language and to the unit a hand is counted
    in (`faan` for an `hk` table: its messages say faan, 番)."""

    def __init__(self, lang: str, unit: str = "tai") -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self.unit = unit

    def __call__(self, key: str, **fields: object) -> str:
        return translate(self.lang, key, self.unit, **fields)

    def has(self, key: str) -> bool:
        return key in _catalogue(self.lang).messages

    def get(self, key: str, fallback: str) -> str:
        """The message `key`, or `fallback` when the catalogue has none."""
        return translate(self.lang, key, self.unit) if self.has(key) else fallback

    def option_label(self, profile_id: str, option: Mapping[str, Any]) -> str:
        """A profile option's label: the profile's own message (`option.hk.seven_pairs`), else
        the shared one (`option.seven_pairs`), then, for an option that admits a pattern, the
        pattern's value in the profile's unit: `Seven pairs is a win (4 faan)`. The value is
        the profile's, never written into the message (scripts/calculator.js does the same)."""
        name = option["name"]
        own = f"option.{profile_id}.{name}"
        label = self.get(own if self.has(own) else f"option.{name}", name.replace("_", " "))
        if "value" in option:
            return self("option.value", label=label, n=option["value"])
        return label


def catalogue(lang: str) -> dict[str, str]:
    """Every message in `lang`, for the page's scripts."""
    return dict(_catalogue(lang).messages)


def pattern_names(lang: str) -> dict[str, str]:
    """Pattern names by id in `lang`; empty for English (the engine's names are English)."""
    return dict(_catalogue(lang).patterns)


def tile_names(lang: str) -> dict[str, str]:
    """Every tile's name in `lang`, by MPSZ."""
    return {tile.mpsz: tile_name(tile, lang) for tile in Tile}


def wind_name(wind: Wind, lang: str) -> str:
    return translate(lang, f"wind.{wind.value}")


def refusal_said(lang: str, error: CompanionError) -> str:
    """A refusal in the page's language where it has a key the catalogues know (the create
    forms' refusals), its English message otherwise."""
    if error.key and Translator(lang).has(error.key):
        return translate(lang, error.key, **dict(error.params))
    return error.message
