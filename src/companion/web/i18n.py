# ruff: noqa: RUF001  (Traditional Chinese is written with full-width punctuation, on purpose)
"""The web app's words in English and Traditional Chinese.

Every string a page shows comes from `MESSAGES` (templates call `t("key")`, scripts read the same
catalogue from the page's JSON data block). Pattern names come from the engine in English;
`PATTERN_NAMES_ZH` gives their Traditional Chinese names by CONTRACT.md id. Messages that the
engine writes for a hand (why it is not a win, notes) stay in English.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.tiles import Tile, Wind

EN = "en"
ZH_HANT = "zh-Hant"
LANGUAGES: tuple[str, ...] = (EN, ZH_HANT)
DEFAULT_LANGUAGE = EN
LANGUAGE_NAMES: Mapping[str, str] = {EN: "English", ZH_HANT: "繁體中文"}
LANGUAGE_COOKIE = "companion_lang"

# key: (English, Traditional Chinese). `{name}` fields are filled by `translate`.
MESSAGES: Mapping[str, tuple[str, str]] = {
    # Layout
    "app.name": ("Companion", "Companion 麻將計分"),
    "app.tagline": ("Mahjong scoring at the table", "牌桌上的麻將計分助手"),
    "nav.label": ("Main", "主選單"),
    "nav.calculator": ("Calculator", "計分器"),
    "nav.api_docs": ("API", "API 文件"),
    "skip_link": ("Skip to the calculator", "跳到計分器"),
    "lang.label": ("Language", "語言"),
    "noscript": (
        "The calculator needs JavaScript. The HTTP API works without it: see the API page.",
        "計分器需要 JavaScript。HTTP API 不需要：請看 API 文件。",
    ),
    "footer.offline": (
        "Everything here is served by Companion itself and works without internet.",
        "本頁所有內容都由 Companion 自己提供，不需要網路。",
    ),
    # Errors
    "error.title": ("Something went wrong", "發生錯誤"),
    "error.not_found": ("There is no page here.", "找不到這一頁。"),
    "error.forbidden": (
        "This form has expired or came from another site. Reload the page and try again.",
        "這個表單已過期或來自其他網站。請重新整理頁面再試一次。",
    ),
    "error.too_large": ("The request is too large.", "送出的資料太大。"),
    "error.generic": ("Companion could not do that.", "Companion 無法完成這個動作。"),
    "error.back": ("Back to the calculator", "回到計分器"),
    # Calculator: the hand
    "calc.title": ("Score a hand", "計算台數"),
    "calc.profile": ("Rules", "規則"),
    "profile.sg": ("Singapore · 0–5 tai (sg)", "新加坡・0–5 台（sg）"),
    "profile.sg-table": (
        "Singapore table · animals, limits, pay-for-all (sg-table)",
        "新加坡牌桌・動物牌、爆棚、包牌（sg-table）",
    ),
    "profile.tw": ("Taiwan · 16 tiles (tw)", "台灣十六張（tw）"),
    "calc.hand": ("Your hand", "手牌"),
    "calc.hand_hint": (
        "Tap tiles to add them; the last tile you add is the winning tile. "
        "Tap a tile in your hand to take it out.",
        "點選牌加入手牌，最後加入的那張就是胡牌張。點手牌裡的牌可以移除。",
    ),
    "calc.hand_label": ("Tiles in your hand", "手牌中的牌"),
    "calc.empty_hand": ("No tiles yet.", "還沒有牌。"),
    "calc.tile_count": ("{count} of {needed} tiles", "{count}／{needed} 張"),
    "calc.winning_tile": ("winning tile", "胡牌張"),
    "calc.undo": ("Undo", "復原"),
    "calc.clear": ("Clear", "清除"),
    "calc.add_as": ("Add as", "加入為"),
    "calc.picker_label": ("Tiles", "選牌"),
    "calc.bonus": ("Flowers, seasons and animals", "花牌、季節牌與動物牌"),
    "calc.bonus_hint": ("Tap to add or take out.", "點一下加入或移除。"),
    "calc.remove": ("Take out {name}", "移除{name}"),
    "calc.tile_in_use": ("{name}, {count} in use", "{name}，已用 {count} 張"),
    "mode.tile": ("Tile", "單張"),
    "mode.chow": ("Chow", "吃"),
    "mode.pung": ("Pung", "碰"),
    "mode.kong": ("Exposed kong", "明槓"),
    "mode.ckong": ("Concealed kong", "暗槓"),
    "meld.chow": ("Chow", "吃"),
    "meld.pung": ("Pung", "碰"),
    "meld.kong": ("Exposed kong", "明槓"),
    "meld.akong": ("Added kong", "加槓"),
    "meld.ckong": ("Concealed kong", "暗槓"),
    "suit.m": ("Characters", "萬子"),
    "suit.p": ("Circles", "筒子"),
    "suit.s": ("Bamboo", "索子"),
    "suit.z": ("Honors", "字牌"),
    "suit.f": ("Flowers and seasons", "花牌與季節牌"),
    "suit.a": ("Animals", "動物牌"),
    # Calculator: how it was won
    "ctx.title": ("How it was won", "胡牌方式"),
    "ctx.win": ("Win", "胡法"),
    "ctx.self_draw": ("Self-draw", "自摸"),
    "ctx.discard": ("On a discard", "別家放槍"),
    "ctx.from": ("Discarded by", "放槍的是"),
    "ctx.seat": ("Your seat wind", "門風（你的座位）"),
    "ctx.round": ("Round wind", "圈風"),
    "ctx.events": ("Special circumstances", "特殊情況"),
    "ctx.dealer": ("Dealer", "莊家"),
    "ctx.dealer_streak": ("Dealer's wins in a row before this hand", "莊家連莊次數"),
    "ctx.table_discards": (
        "Discards so far, the winning one included (blank: unknown)",
        "已打出的牌數，含胡的那張（空白：不知道）",
    ),
    "ctx.liable": ("Pays for all", "包牌（一家全付）"),
    "ctx.nobody": ("Nobody", "無"),
    "ctx.flower_win": ("Flower win", "花胡"),
    "flower_win.none": ("No", "否"),
    "flower_win.seven_capture": ("Seven flowers, robbing the eighth", "七搶一"),
    "flower_win.eight": ("All eight flowers", "八仙過海"),
    "ctx.options": ("Table options", "桌規選項"),
    "event.replacement": ("Won on a replacement tile", "補牌後自摸（槓上／花上開花）"),
    "event.kong_on_kong": ("Kong on kong", "槓上槓"),
    "event.robbing_kong": ("Robbing a kong", "搶槓"),
    "event.last_tile": ("Last tile of the wall", "海底撈月"),
    "event.last_discard": ("Last discard", "河底撈魚"),
    "event.heavenly": ("Heavenly hand (dealer wins on the deal)", "天胡"),
    "event.earthly": ("Earthly hand", "地胡"),
    "event.original_ready": ("Ready from the deal", "天聽"),
    "option.min_tai": ("Minimum tai", "起胡台數"),
    "option.share": ("One-tai share", "一台的金額"),
    "option.cap": ("Tai cap", "台數上限"),
    "option.shooter_pays": ("The discarder pays for everyone", "放槍者全付"),
    "option.base": ("Base (on every payment)", "底（每次付款）"),
    "option.per_tai": ("Per tai", "每台"),
    "option.exposed_self_draw": (
        "A hand with all five sets declared may win by self-draw",
        "五組全部吃碰時也可以自摸",
    ),
    "option.wait_rule": ("Pair and closed waits", "單吊、嵌張的判定"),
    "option.wait_rule.role": ("By the winning tile's place", "依胡牌張的位置"),
    "option.wait_rule.single": ("Only when it is the only wait", "只聽一張時才算"),
    "wind.E": ("East", "東"),
    "wind.S": ("South", "南"),
    "wind.W": ("West", "西"),
    "wind.N": ("North", "北"),
    "seat.E": ("East", "東家"),
    "seat.S": ("South", "南家"),
    "seat.W": ("West", "西家"),
    "seat.N": ("North", "北家"),
    # Calculator: the result
    "result.title": ("Result", "結果"),
    "result.empty": (
        "Add the tiles of a winning hand to see what it scores.",
        "加入胡牌時的手牌，就會看到台數。",
    ),
    "result.need_more": ("Add {n} more tiles.", "還要再加 {n} 張牌。"),
    "result.need_one": (
        "Add one more tile to score the hand; with one tile short, the waits show here.",
        "再加一張牌就能計分；差一張時，這裡會列出聽的牌。",
    ),
    "result.checking": ("Checking…", "計算中…"),
    "result.valid": ("Legal win", "可以胡"),
    "result.invalid": ("Not a win", "不能胡"),
    "result.tai": ("{n} tai", "{n} 台"),
    "result.raw": ("patterns add up to {n}", "牌型合計 {n} 台"),
    "result.total": ("Total", "合計"),
    "result.patterns": ("Patterns", "牌型"),
    "result.no_patterns": ("No scoring pattern", "沒有計台的牌型"),
    "result.times": ("×{n}", "×{n}"),
    "result.whole_hand": ("the whole hand", "整手牌"),
    "result.reading": ("How the hand reads", "手牌拆法"),
    "result.wait_role": ("The winning tile made a {role}.", "胡牌張是{role}。"),
    "role.pair": ("pair wait", "單吊"),
    "role.pung": ("pung (two pairs waiting)", "對碰"),
    "role.two_sided": ("two-sided wait", "兩面聽"),
    "role.closed": ("closed wait (middle of a chow)", "嵌張"),
    "role.edge": ("edge wait", "邊張"),
    "role.single": ("single orphan", "十三么單騎"),
    "result.waited_on": ("Waited on", "聽的牌"),
    "result.waited_on_list": ("Waited on: {tiles}", "聽的牌：{tiles}"),
    "result.payments": ("Who pays whom", "誰付給誰"),
    "result.pays": ("{payer} pays {payee}", "{payer} 付給 {payee}"),
    "result.net": ("Net", "輸贏"),
    "result.winner": ("winner", "贏家"),
    "result.under_minimum": ("Under the minimum: nobody pays.", "未達起胡台數：不用付。"),
    "result.dealer_tai": (
        "Dealer tai, on the dealer's payments: {n}",
        "莊家台（只加在莊家的付款）：{n}",
    ),
    "result.notes": ("Notes", "備註"),
    "result.one_short": ("One tile short", "差一張"),
    "result.waits": ("Waits, and what each would score", "聽的牌與各自的台數"),
    "result.no_waits": ("No tile completes this hand.", "沒有牌可以胡這手牌。"),
    "result.use_wait": ("Add {name} as the winning tile", "把{name}加入為胡牌張"),
    "result.network": (
        "Companion could not be reached. Try again.",
        "無法連到 Companion，請再試一次。",
    ),
    "bar.see": ("Breakdown", "明細"),
    # API docs page
    "docs.title": ("HTTP API", "HTTP API"),
    "docs.intro": (
        "Companion's HTTP API: JSON in, JSON out. The OpenAPI document is at /openapi.json.",
        "Companion 的 HTTP API：送 JSON、回 JSON。OpenAPI 文件在 /openapi.json。",
    ),
    "docs.request": ("Request body", "請求內容"),
    "docs.responses": ("Responses", "回應"),
    "docs.example": ("Example", "範例"),
}

PATTERN_NAMES_ZH: Mapping[str, str] = {
    # sg, sg-table
    "seat_flower": "正花",
    "flower_set": "一套花",
    "animal": "動物牌",
    "animal_set": "四動物",
    "dragon_set": "三元刻",
    "valued_wind": "門風／圈風刻",
    "little_ping_hu": "小平胡",
    "ping_hu": "平胡",
    "fully_concealed": "門清自摸",
    "replacement_win": "槓上開花",
    "robbing_kong": "搶槓",
    "last_tile": "海底撈月",
    "half_flush": "混一色",
    "all_pungs": "碰碰胡",
    "little_dragons": "小三元",
    "full_flush": "清一色",
    "mixed_terminals_honors": "混么九",
    "little_winds": "小四喜",
    "big_dragons": "大三元",
    "big_winds": "大四喜",
    "all_honors": "字一色",
    "all_terminals": "清么九",
    "hidden_treasure": "四暗刻",
    "thirteen_orphans": "十三么",
    "all_green": "綠一色",
    "nine_gates": "九蓮寶燈",
    "four_kongs": "十八羅漢（四槓）",
    "kong_on_kong": "槓上槓",
    "heavenly": "天胡",
    "earthly": "地胡",
    "seven_bonus": "七搶一",
    "eight_bonus": "八仙過海",
    # tw
    "winning_hand": "胡牌",
    "no_flowers": "無花",
    "flowers": "花牌",
    "honor_triplet": "字牌刻",
    "melded_kong": "明槓",
    "concealed_kong": "暗槓",
    "fully_concealed_self_draw": "門清自摸",
    "concealed_hand": "門清",
    "self_draw": "自摸",
    "exposed_hand": "全求人",
    "pair_wait": "單吊",
    "closed_or_edge_wait": "嵌張／邊張",
    "no_honors": "無字",
    "no_honors_or_flowers": "無字無花",
    "seven_pairs_triplet": "嚦咕嚦咕",
    "chow_hand": "平胡",
    "pure_chow_hand": "無花平胡",
    "all_triplets": "碰碰胡",
    "little_three_winds": "小三風",
    "big_three_winds": "大三風",
    "little_four_winds": "小四喜",
    "big_four_winds": "大四喜",
    "two_concealed_triplets": "二暗刻",
    "three_concealed_triplets": "三暗刻",
    "four_concealed_triplets": "四暗刻",
    "five_concealed_triplets": "五暗刻",
    "pure_straight": "一條龍",
    "last_wall_draw": "海底撈月",
    "last_discard": "河底撈魚",
    "very_early_win": "極早胡",
    "early_win": "早胡",
    "original_ready": "天聽",
    "seven_flower_capture": "七搶一",
    "eight_flowers": "八仙過海",
}

_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUITS = {"m": "萬", "p": "筒", "s": "索"}
_ZH_HONORS = ("東風", "南風", "西風", "北風", "白板", "青發", "紅中")
_ZH_BONUS = ("梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬", "貓", "鼠", "雞", "蜈蚣")


def tile_name(tile: Tile, lang: str) -> str:
    """A tile's name for a person: `5 of bamboo` or `五索`."""
    if lang != ZH_HANT:
        return tile.english
    if tile < Tile.EAST:
        return _ZH_NUMERALS[tile.rank - 1] + _ZH_SUITS[tile.suit.value]
    if tile < Tile.PLUM:
        return _ZH_HONORS[tile - Tile.EAST]
    return _ZH_BONUS[tile - Tile.PLUM]


def normalize_language(value: str | None) -> str | None:
    """A supported language for `value` (`en`, `zh-Hant`, `zh-TW`, `zh`...), else None."""
    if not value:
        return None
    key = value.strip().lower().replace("_", "-")
    if key == "en" or key.startswith("en-"):
        return EN
    if key in ("zh", "zh-hant", "zh-tw", "zh-hk", "zh-mo") or key.startswith("zh-hant"):
        return ZH_HANT
    return None


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


def translate(lang: str, key: str, **fields: object) -> str:
    """The message `key` in `lang`, its `{fields}` filled; the key itself if unknown."""
    pair = MESSAGES.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == ZH_HANT else pair[0]
    if fields:
        return text.format_map({name: str(value) for name, value in fields.items()})
    return text


class Translator:
    """`t("key", n=3)` in templates, bound to one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE

    def __call__(self, key: str, **fields: object) -> str:
        return translate(self.lang, key, **fields)

    def get(self, key: str, fallback: str) -> str:
        """The message `key`, or `fallback` when the catalogue has none."""
        return translate(self.lang, key) if key in MESSAGES else fallback


def catalogue(lang: str) -> dict[str, str]:
    """Every message in `lang`, for the page's scripts."""
    index = 1 if lang == ZH_HANT else 0
    return {key: pair[index] for key, pair in MESSAGES.items()}


def pattern_names(lang: str) -> dict[str, str]:
    """Pattern names by id in `lang`; empty for English (the engine's names are English)."""
    return dict(PATTERN_NAMES_ZH) if lang == ZH_HANT else {}


def tile_names(lang: str) -> dict[str, str]:
    """Every tile's name in `lang`, by MPSZ."""
    return {tile.mpsz: tile_name(tile, lang) for tile in Tile}


def wind_name(wind: Wind, lang: str) -> str:
    return translate(lang, f"wind.{wind.value}")
