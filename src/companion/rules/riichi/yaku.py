"""Riichi's yaku and yakuman as pattern data: id, name, closed han, open han, what it needs of
a reading, and what it replaces.

Each is a `companion.rules.patterns.Pattern`: `tai` is its closed han (a yakuman's: how many
yakuman), the variant `open` its open han, `replaces` the patterns it wins over (junchan over
chanta, chinitsu over honitsu, ryanpeikou over iipeikou, double riichi over riichi, the `_13`,
`_tanki` and `junsei_` forms over their plain one, daisuushii over shousuushii), and `limit`
marks a yakuman, which leaves every other yaku out. A predicate reads `RiichiFacts`; a closed-
only yaku never matches an open hand. The optional yaku (`OPTIONAL_YAKU`) are each declared once
with the option that plays them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from companion.rules.patterns import Match, Pattern, Predicate, ids, needs, needs_of
from companion.rules.riichi import features as bits
from companion.rules.riichi.facts import (
    DRAGONS,
    GREEN_TILES,
    WINDS,
    RiichiCircumstance,
    RiichiFacts,
    is_terminal_or_honor,
)
from companion.shapes import Group, Shape, WinRole
from companion.tiles import Tile

Test = Callable[[RiichiFacts], bool]
_ONE = (Match(()),)
_OPEN = (Match((), "open"),)


def _closed_or_open(features: int) -> tuple[str | None, ...]:
    return _CLOSED_VARIANT if features & bits.CLOSED else _OPEN_VARIANT


_CLOSED_VARIANT: tuple[str | None, ...] = (None,)
_OPEN_VARIANT: tuple[str | None, ...] = ("open",)


def _yaku(
    id: str,
    name: str,
    closed: int,
    open: int | None,
    test: Test,
    needed: int,
    replaces: frozenset[str] = frozenset(),
) -> Pattern:
    """A yaku of `closed` han, `open` han on an open hand (None: closed only). `bits`: the
    features (`features.py`) of exactly the readings `test` passes."""

    def matches(facts: RiichiFacts) -> tuple[Match, ...]:
        if not test(facts):
            return ()
        if facts.closed:
            return _ONE
        return () if open is None else _OPEN

    if open is None:
        needs(needed | bits.CLOSED, decided=True)(matches)
    else:
        needs(needed, decided=True, variants=_closed_or_open)(matches)
    variants = {} if open is None else {"open": open}
    return Pattern(id, name, closed, cast(Predicate, matches), replaces=replaces, variants=variants)


def _per_group(
    id: str,
    name: str,
    test: Callable[[RiichiFacts, Group], bool],
    needed: int,
    count: Callable[[int], int],
) -> Pattern:
    """A yaku of 1 han for each pung or kong that passes `test` (yakuhai): on a reading with
    the features `needed`, `count` of its features of them, and none on another."""

    def matches(facts: RiichiFacts) -> tuple[Match, ...]:
        return tuple(Match((group,)) for group in facts.pungs if test(facts, group))

    needs(needed, decided=True, count=count)(matches)
    return Pattern(id, name, 1, cast(Predicate, matches), variants={"open": 1})


def _yakuman(
    id: str,
    name: str,
    test: Test,
    needed: int,
    replaces: frozenset[str] = frozenset(),
    *,
    decided: bool = True,
) -> Pattern:
    """A yakuman of the readings `test` passes: exactly those with the features `needed`, or,
    not `decided`, some of them only (the predicate runs on those)."""

    def matches(facts: RiichiFacts) -> tuple[Match, ...]:
        return _ONE if test(facts) else ()

    needs(needed, decided=decided)(matches)
    return Pattern(id, name, 1, cast(Predicate, matches), replaces=replaces, limit=True)


def _one(features: int) -> int:
    return 1


def _event(event: RiichiCircumstance) -> Test:
    return lambda facts: facts.context.has(event)


def _all_tiles(test: Callable[[int], bool]) -> Test:
    return lambda facts: all(test(kind) for kind in facts.kinds)


def _every_group(test: Callable[[Group], bool]) -> Callable[[RiichiFacts], bool]:
    return lambda facts: all(test(group) for group in facts.groups)


def _has_outside(group: Group) -> bool:
    return any(is_terminal_or_honor(tile) for tile in group.tiles)


def _has_terminal(group: Group) -> bool:
    return any(tile < Tile.EAST and tile % 9 in (0, 8) for tile in group.tiles)


def _pinfu(facts: RiichiFacts) -> bool:
    pair = facts.pair
    return (
        facts.standard
        and len(facts.chows) == 4
        and pair is not None
        and not facts.is_value_tile(pair.tile)
        and facts.role is WinRole.TWO_SIDED
    )


def _twin_chows(facts: RiichiFacts) -> int:
    """How many pairs of identical chows (four alike are two)."""
    return sum(count // 2 for count in Counter(group.tile for group in facts.chows).values())


def _chanta(facts: RiichiFacts) -> bool:
    return (
        facts.standard
        and bool(facts.chows)
        and facts.has_honors
        and _every_group(_has_outside)(facts)
    )


def _junchan(facts: RiichiFacts) -> bool:
    return facts.standard and bool(facts.chows) and _every_group(_has_terminal)(facts)


def _ittsu(facts: RiichiFacts) -> bool:
    starts = {group.tile for group in facts.chows}
    return any({s, s + 3, s + 6} <= starts for s in (0, 9, 18))


def _sanshoku(facts: RiichiFacts) -> bool:
    starts = {group.tile for group in facts.chows}
    return any({r, r + 9, r + 18} <= starts for r in range(7))


def _sanshoku_doukou(facts: RiichiFacts) -> bool:
    tiles = {group.tile for group in facts.pungs}
    return any({r, r + 9, r + 18} <= tiles for r in range(9))


def _dragon_pungs(facts: RiichiFacts) -> int:
    return sum(group.tile in DRAGONS for group in facts.pungs)


def _wind_pungs(facts: RiichiFacts) -> int:
    return sum(group.tile in WINDS for group in facts.pungs)


def _one_suit(facts: RiichiFacts) -> bool:
    return len(facts.suits()) == 1


def _kokushi_13(facts: RiichiFacts) -> bool:
    """Thirteen orphans waiting on all thirteen: the tiles before the winning one were one
    of each."""
    return facts.shape is Shape.THIRTEEN_ORPHANS and max(facts.waiting_counts()) == 1


def _chuuren(facts: RiichiFacts) -> bool:
    if not (facts.closed and not facts.hand.melds and _one_suit(facts) and not facts.has_honors):
        return False
    first = min(facts.kinds) // 9 * 9
    counts = facts.counts[first : first + 9]
    need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    return all(have >= needed for have, needed in zip(counts, need, strict=True))


def _junsei_chuuren(facts: RiichiFacts) -> bool:
    """Nine gates waiting on all nine: the tiles before the winning one were 1112345678999."""
    if not _chuuren(facts):
        return False
    first = min(facts.kinds) // 9 * 9
    return facts.waiting_counts()[first : first + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _suuankou(facts: RiichiFacts) -> bool:
    return len(facts.concealed_pungs) == 4


E = RiichiCircumstance

YAKU: tuple[Pattern, ...] = (
    _yaku("riichi", "Riichi 立直", 1, None, _event(E.RIICHI), bits.RIICHI),
    _yaku(
        "double_riichi",
        "Double riichi 両立直",
        2,
        None,
        _event(E.DOUBLE_RIICHI),
        bits.DOUBLE_RIICHI,
        replaces=ids("riichi"),
    ),
    _yaku("ippatsu", "Ippatsu 一発", 1, None, _event(E.IPPATSU), bits.IPPATSU),
    _yaku(
        "menzen_tsumo",
        "Menzen tsumo 門前清自摸和",
        1,
        None,
        lambda f: not f.context.by_discard,
        bits.SELF_DRAW,
    ),
    _yaku("pinfu", "Pinfu 平和", 1, None, _pinfu, bits.PINFU_SHAPE),
    _yaku("iipeikou", "Iipeikou 一盃口", 1, None, lambda f: _twin_chows(f) == 1, bits.ONE_TWIN),
    _yaku(
        "tanyao",
        "Tanyao 断幺九",
        1,
        1,
        _all_tiles(lambda tile: not is_terminal_or_honor(tile)),
        bits.ALL_SIMPLES,
    ),
    _per_group(
        "yakuhai_dragon",
        "Yakuhai: dragon 役牌",
        lambda f, g: g.tile in DRAGONS,
        bits.DRAGON_PUNG,
        bits.dragon_pungs,
    ),
    _per_group(
        "yakuhai_seat",
        "Yakuhai: seat wind 自風",
        lambda f, g: g.tile == f.seat_tile,
        bits.SEAT_PUNG,
        _one,
    ),
    _per_group(
        "yakuhai_round",
        "Yakuhai: round wind 場風",
        lambda f, g: g.tile == f.round_tile,
        bits.ROUND_PUNG,
        _one,
    ),
    _yaku("haitei", "Haitei raoyue 海底摸月", 1, 1, _event(E.LAST_TILE), bits.LAST_TILE),
    _yaku("houtei", "Houtei raoyui 河底撈魚", 1, 1, _event(E.LAST_DISCARD), bits.LAST_DISCARD),
    _yaku("rinshan", "Rinshan kaihou 嶺上開花", 1, 1, _event(E.REPLACEMENT), bits.REPLACEMENT),
    _yaku("chankan", "Chankan 槍槓", 1, 1, _event(E.ROBBING_KONG), bits.ROBBING_KONG),
    _yaku("chanta", "Chanta 混全帯幺九", 2, 1, _chanta, bits.OUTSIDE_GROUPS),
    _yaku("ittsu", "Ittsu 一気通貫", 2, 1, _ittsu, bits.STRAIGHT),
    _yaku("sanshoku", "Sanshoku doujun 三色同順", 2, 1, _sanshoku, bits.THREE_CHOWS),
    _yaku("sanshoku_doukou", "Sanshoku doukou 三色同刻", 2, 2, _sanshoku_doukou, bits.THREE_PUNGS),
    _yaku("toitoi", "Toitoi 対々和", 2, 2, lambda f: len(f.pungs) == 4, bits.ALL_PUNGS),
    _yaku(
        "sanankou",
        "Sanankou 三暗刻",
        2,
        2,
        lambda f: len(f.concealed_pungs) == 3,
        bits.THREE_CONCEALED,
    ),
    _yaku("sankantsu", "Sankantsu 三槓子", 2, 2, lambda f: len(f.kongs) == 3, bits.THREE_KONGS),
    _yaku(
        "honroutou", "Honroutou 混老頭", 2, 2, _all_tiles(is_terminal_or_honor), bits.ALL_OUTSIDE
    ),
    _yaku(
        "shousangen",
        "Shousangen 小三元",
        2,
        2,
        lambda f: _dragon_pungs(f) == 2 and f.pair is not None and f.pair.tile in DRAGONS,
        bits.LITTLE_DRAGONS,
    ),
    _yaku("chiitoitsu", "Chiitoitsu 七対子", 2, None, lambda f: f.seven_pairs, bits.SEVEN_PAIRS),
    _yaku(
        "honitsu",
        "Honitsu 混一色",
        3,
        2,
        lambda f: _one_suit(f) and f.has_honors,
        bits.HALF_FLUSH,
    ),
    _yaku(
        "junchan",
        "Junchan 純全帯幺九",
        3,
        2,
        _junchan,
        bits.TERMINAL_GROUPS,
        replaces=ids("chanta"),
    ),
    _yaku(
        "ryanpeikou",
        "Ryanpeikou 二盃口",
        3,
        None,
        lambda f: _twin_chows(f) == 2,
        bits.TWO_TWINS,
        replaces=ids("iipeikou"),
    ),
    _yaku(
        "chinitsu",
        "Chinitsu 清一色",
        6,
        5,
        lambda f: _one_suit(f) and not f.has_honors,
        bits.FULL_FLUSH,
        replaces=ids("honitsu"),
    ),
)
"""The yaku, in the order a result lists them."""

YAKUMAN: tuple[Pattern, ...] = (
    _yakuman(
        "kokushi",
        "Kokushi musou 国士無双",
        lambda f: f.shape is Shape.THIRTEEN_ORPHANS,
        bits.THIRTEEN_ORPHANS,
    ),
    _yakuman(
        "kokushi_13",
        "Kokushi musou, 13-sided wait 国士無双十三面",
        _kokushi_13,
        bits.THIRTEEN_ORPHANS,
        ids("kokushi"),
        decided=False,
    ),
    _yakuman("suuankou", "Suuankou 四暗刻", _suuankou, bits.FOUR_CONCEALED),
    _yakuman(
        "suuankou_tanki",
        "Suuankou, pair wait 四暗刻単騎",
        lambda f: _suuankou(f) and f.role is WinRole.PAIR,
        bits.FOUR_CONCEALED_PAIR_WAIT,
        ids("suuankou"),
    ),
    _yakuman("daisangen", "Daisangen 大三元", lambda f: _dragon_pungs(f) == 3, bits.BIG_DRAGONS),
    _yakuman(
        "shousuushii",
        "Shousuushii 小四喜",
        lambda f: _wind_pungs(f) == 3 and f.pair is not None and f.pair.tile in WINDS,
        bits.LITTLE_WINDS,
    ),
    _yakuman(
        "daisuushii",
        "Daisuushii 大四喜",
        lambda f: _wind_pungs(f) == 4,
        bits.BIG_WINDS,
        ids("shousuushii"),
    ),
    _yakuman(
        "tsuuiisou",
        "Tsuuiisou 字一色",
        _all_tiles(lambda tile: tile >= Tile.EAST),
        bits.ALL_HONORS,
    ),
    _yakuman(
        "chinroutou",
        "Chinroutou 清老頭",
        _all_tiles(lambda tile: tile < Tile.EAST and tile % 9 in (0, 8)),
        bits.ALL_TERMINALS,
    ),
    _yakuman(
        "ryuuiisou",
        "Ryuuiisou 緑一色",
        _all_tiles(lambda tile: tile in GREEN_TILES),
        bits.ALL_GREEN,
    ),
    _yakuman(
        "chuuren",
        "Chuuren poutou 九蓮宝燈",
        _chuuren,
        bits.CLOSED | bits.FULL_FLUSH | bits.NINE_GATES,
    ),
    _yakuman(
        "junsei_chuuren",
        "Junsei chuuren poutou 純正九蓮宝燈",
        _junsei_chuuren,
        bits.CLOSED | bits.FULL_FLUSH | bits.PURE_NINE_GATES,
        ids("chuuren"),
    ),
    _yakuman("suukantsu", "Suukantsu 四槓子", lambda f: len(f.kongs) == 4, bits.FOUR_KONGS),
    _yakuman("tenhou", "Tenhou 天和", _event(E.HEAVENLY), bits.HEAVENLY),
    _yakuman("chiihou", "Chiihou 地和", _event(E.EARTHLY), bits.EARTHLY),
)
"""The yakuman, each worth one (`DOUBLE_FORMS` two with option `double_yakuman`)."""

# ---------------------------------------------------------------------------------------------
# The optional yaku: each played only where its option says so


@dataclass(frozen=True)
class OptionalYaku:
    """A yaku or yakuman that a table plays or not, by an option named as it. Declared here
    once: the options (`options.RiichiOptions`) take a field of it, the presets their values
    of it, the scorer its pattern (`patterns_of`), and docs/rules-riichi.md its row
    (`optional_table`).

    `plays`: what each of the option's values plays (None: nothing), the default first;
    `presets`: the presets that play another value than the default; `about`: what the hand
    is, as the docs say it."""

    option: str
    plays: Mapping[bool | str, Pattern | None]
    about: str
    presets: Mapping[str, bool | str] = field(default_factory=dict)

    @property
    def default(self) -> bool | str:
        return next(iter(self.plays))

    @property
    def listed(self) -> Pattern:
        """The pattern the profile lists for it (the first value's that plays one)."""
        return next(pattern for pattern in self.plays.values() if pattern is not None)

    def value_in(self, options: object) -> bool | str:
        """The option's value in a table's options."""
        found: bool | str = getattr(options, self.option)
        return found

    def pattern_in(self, options: object) -> Pattern | None:
        """What a table with these options plays of it."""
        return self.plays[self.value_in(options)]


def switched(pattern: Pattern, about: str, *presets: str) -> OptionalYaku:
    """A local yaku, played where its option, named as it, is on: off but in `presets`. One
    entry of `OPTIONAL_YAKU` made of it is all a local yaku needs besides its pattern."""
    return OptionalYaku(
        pattern.id, {False: None, True: pattern}, about, dict.fromkeys(presets, True)
    )


RENHOU = OptionalYaku(
    "renhou",
    {
        "off": None,
        "mangan": _yaku("renhou", "Renhou 人和", 5, None, _event(E.RENHOU), bits.RENHOU),
        "yakuman": _yakuman("renhou", "Renhou 人和", _event(E.RENHOU), bits.RENHOU),
    },
    "a non-dealer's win on a discard before their first draw, no call made",
    {"wrc": "mangan"},
)
OPTIONAL_YAKU: tuple[OptionalYaku, ...] = (RENHOU,)
"""The optional yaku, in the order the options and a result list them (after the yakuman)."""
OPTIONAL_PATTERNS = tuple(
    pattern for entry in OPTIONAL_YAKU for pattern in entry.plays.values() if pattern is not None
)
"""Every pattern an optional yaku may play, by any value of its option."""


def patterns_of(options: object) -> tuple[Pattern, ...]:
    """The yaku and yakuman a table with these options plays, in the order a result lists
    them."""
    played = [entry.pattern_in(options) for entry in OPTIONAL_YAKU]
    return (*YAKU, *YAKUMAN, *[pattern for pattern in played if pattern is not None])


def _shown(value: bool | str) -> str:
    return f'`"{value}"`' if isinstance(value, str) else "on" if value else "off"


def _worth(pattern: Pattern) -> str:
    if pattern.limit:
        worth = f"{pattern.tai} yakuman"
    else:
        opened = pattern.variants.get("open")
        worth = f"{pattern.tai} han" + ("" if opened is None else f", {opened} open")
    return worth + (", closed only" if needs_of(pattern.predicate)[0] & bits.CLOSED else "")


def optional_table(entries: Sequence[OptionalYaku] = OPTIONAL_YAKU) -> str:
    """docs/rules-riichi.md's table of the optional yaku (*Optional yaku*), as Markdown."""
    rows = [
        "| option | yaku | played | default | presets |",
        "|---|---|---|---|---|",
    ]
    for entry in entries:
        played = "; ".join(
            f"{_shown(value)}: {_worth(pattern)}"
            for value, pattern in entry.plays.items()
            if pattern is not None
        )
        presets = ", ".join(
            f"`{name}`" if value is True else f"`{name}` ({_shown(value)})"
            for name, value in entry.presets.items()
        )
        rows.append(
            f"| `{entry.option}` | {entry.listed.name}: {entry.about} | {played} "
            f"| {_shown(entry.default)} | {presets or 'none'} |"
        )
    return "\n".join(rows) + "\n"


DOUBLE_FORMS = ids("kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii")
"""The yakuman worth two with option `double_yakuman`."""

DORA_NAMES = {
    "dora": "Dora ドラ",
    "aka_dora": "Red five 赤ドラ",
    "ura_dora": "Ura dora 裏ドラ",
    "kita": "Kita 抜きドラ",
}
"""Counted and shown, never a yaku (`kita`: the North tiles set aside in `sanma`)."""


def scored(patterns: Sequence[Pattern], facts: RiichiFacts) -> list[tuple[Pattern, int, int]]:
    """The patterns of `patterns` that score on this reading, as (pattern, matches, han or
    yakuman of all of them): every pattern's predicate, then what the scoring ones replace,
    then, when a yakuman scores, the yaku left out."""
    found: list[tuple[Pattern, int, int]] = []
    for pattern in patterns:
        matches = pattern.predicate(cast(object, facts))  # type: ignore[arg-type]
        if matches:
            found.append((pattern, len(matches), value_of(pattern, matches)))
    return resolved(found)


def value_of(pattern: Pattern, matches: Sequence[Match]) -> int:
    """The han (or yakuman) of a pattern's matches."""
    return sum(pattern.tai_of(match, {}) for match in matches)


def resolved(found: list[tuple[Pattern, int, int]]) -> list[tuple[Pattern, int, int]]:
    """The patterns that matched, in table order, less those a matching one replaces, and only
    the yakuman when one matched."""
    replaced = {name for pattern, _, _ in found for name in pattern.replaces}
    found = [entry for entry in found if entry[0].id not in replaced]
    if any(pattern.limit for pattern, _, _ in found):
        found = [entry for entry in found if entry[0].limit]
    return found
