# ruff: noqa: RUF001  (Traditional Chinese is written with full-width punctuation, on purpose)
"""The web app's words in English and Traditional Chinese.

Every string a page shows comes from `MESSAGES` (templates call `t("key")`, scripts read the same
catalogue from the page's JSON data block). Pattern names come from the engine in English;
`PATTERN_NAMES_ZH` gives their Traditional Chinese names by pattern id. Messages that the
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
    "skip_link": ("Skip to the main content", "跳到主要內容"),
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
    "profile.hk": ("Hong Kong · 3–13 faan (hk)", "香港老番・3–13 番（hk）"),
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
    "option.min_faan": ("Minimum faan (flower faan not counted)", "起糊番數（不計花番）"),
    "option.max_faan": ("Maximum faan (8, 10 or 13)", "滿糊番數（8、10 或 13）"),
    "option.flowers_count_to_minimum": ("Flower faan count towards the minimum", "花番計入起糊"),
    "option.great_dragons_limit": ("Great dragons is a limit hand", "大三元作滿糊"),
    "option.seven_pairs": ("Seven pairs is a win (4 faan)", "七對子可以糊（4 番）"),
    "option.base@faan": (
        "Stake: one payment is the stake × the faan's multiple",
        "底：每份 = 底 × 番數倍數",
    ),
    "option.curve": ("Payout curve", "番數倍數"),
    "option.curve.half_spicy": (
        "Half-spicy: 1, 2, 4, 8, 16, 24, 32…",
        "半辣：1、2、4、8、16、24、32…",
    ),
    "option.curve.spicy": ("Spicy: doubling with each faan", "辣上辣：每番加倍"),
    "option.gun": ("A win on a discard", "食出銃"),
    "option.gun.full": ("Full gun: the discarder pays double", "全銃：出銃者付雙份"),
    "option.gun.half": (
        "Half gun: the discarder pays one, each other player a half",
        "半銃：出銃者付一份，其他兩家各付半份",
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
    # Tables: the list and the create form
    "nav.tables": ("Tables", "牌桌"),
    "tables.title": ("Tables", "牌桌"),
    "tables.intro": (
        "Keep a table's score: record each hand in a few taps; the totals, the dealer and the "
        "winds are worked out for you, and mistakes can be corrected.",
        "幫一桌記分：每局點幾下就記好；輸贏、莊家和風位都會自動算好，記錯也可以更正。",
    ),
    "tables.mine": ("Your tables on this device", "這台裝置上的牌桌"),
    "tables.mine_hint": (
        "This device keeps their write links. Anyone else needs the link to record hands.",
        "這台裝置記得它們的記分連結。其他人要有連結才能記分。",
    ),
    "tables.forget": ("Forget", "忘記"),
    "tables.forget_named": ("Forget table {id} on this device", "在這台裝置上忘記牌桌 {id}"),
    "tables.new": ("Start a table", "開新牌桌"),
    "tables.players": ("Players, in seat order", "玩家（依座位順序）"),
    "tables.players_hint": (
        "East deals first; the deal then passes to South, West and North.",
        "東家先做莊，之後依序輪到南、西、北家。",
    ),
    "tables.deals_first": ("deals first", "先做莊"),
    "tables.hands": ("Hands to play (blank: no limit)", "預定局數（空白：不限）"),
    "tables.hands_hint": (
        "The table takes no more hands once they are played.",
        "打完預定局數後就不能再記。",
    ),
    "tables.name": ("Table name (optional)", "牌桌名稱（可不填）"),
    "tables.create": ("Start the table", "開始"),
    "tables.error": ("The table was not started.", "牌桌沒有建立。"),
    "tables.error_profile": ("Choose one of the rules in the list.", "請從清單中選一種規則。"),
    "tables.error_hands": (
        "The number of hands must be a whole number, or blank.",
        "局數必須是整數，或留空白。",
    ),
    # A table: head and links
    "table.title": ("Table {id}", "牌桌 {id}"),
    "table.read_only": ("Watching (read-only)", "觀看中（唯讀）"),
    "table.can_write": ("You can record on this device", "這台裝置可以記分"),
    "table.created": (
        "The table is ready. Send the write link to whoever records the hands, and the "
        "read-only link to anyone who wants to watch.",
        "牌桌已建立。把記分連結傳給負責記分的人，把觀看連結傳給想看的人。",
    ),
    "table.share_title": ("Links to this table", "這張牌桌的連結"),
    "table.write_link": ("Write link", "記分連結"),
    "table.write_link_hint": (
        "Anyone with this link can record and correct hands. Share it only with the players.",
        "有這個連結的人都能記分和更正。只傳給一起打牌的人。",
    ),
    "table.read_link": ("Read-only link", "觀看連結（唯讀）"),
    "table.read_link_hint": (
        "Shows the scores and the history; it cannot change anything.",
        "可以看分數和紀錄，不能修改任何東西。",
    ),
    "table.read_only_hint": (
        "To record hands on this device, open the table's write link here.",
        "要在這台裝置上記分，請在這裡打開牌桌的記分連結。",
    ),
    "table.copy": ("Copy", "複製"),
    "table.copied": ("Copied.", "已複製。"),
    "table.copy_manual": (
        "The link is selected: copy it with your device's copy command.",
        "連結已選取，請用裝置的複製功能複製。",
    ),
    "table.forget": ("Forget the write link on this device", "在這台裝置上忘記記分連結"),
    "table.forget_confirm": (
        "Forget this table's write link on this device? Without it, this device can only watch.",
        "要在這台裝置上忘記這張牌桌的記分連結嗎？忘記後這台裝置只能觀看。",
    ),
    "table.token_missing": (
        "This device has no write link for this table: it can only watch.",
        "這台裝置沒有這張牌桌的記分連結，只能觀看。",
    ),
    "table.token_rejected": (
        "This device's write link does not match this table. Open the table's write link again.",
        "這台裝置的記分連結和這張牌桌不符。請重新打開牌桌的記分連結。",
    ),
    "table.link_refused": (
        "The write link you opened does not match this table: this device keeps the write link "
        "it already had.",
        "你打開的記分連結和這張牌桌不符：這台裝置保留原本的記分連結。",
    ),
    # A table: the board
    "table.scoreboard": ("Scores", "分數"),
    "table.older": ("Older events", "較早的紀錄"),
    "table.newest": ("Newest events", "最新的紀錄"),
    "table.history_range": (
        "Events {first} to {last} of {total}",
        "第 {first} 至 {last} 筆，共 {total} 筆",
    ),
    "table.round": ("{wind} round", "{wind}風圈"),
    "table.hand": ("Hand {n}", "第 {n} 局"),
    "table.hand_of": ("Hand {n} of {total}", "第 {n}／{total} 局"),
    "table.all_played": ("All {n} hands played", "{n} 局已全部打完"),
    "table.dealer": ("{name} deals", "{name} 做莊"),
    "table.streak": ("{n} in a row", "連莊 {n}"),
    "table.dealer_badge": ("Dealer", "莊家"),
    "table.chart": ("Running totals", "累計輸贏"),
    "table.chart_axis": (
        "Across: hands played. Up: each player's total.",
        "橫軸：局數；縱軸：各家累計。",
    ),
    "table.chart_empty": (
        "The chart starts with the first hand.",
        "記下第一局後就會出現走勢圖。",
    ),
    "table.chart_summary": ("After {n} hands: {totals}", "{n} 局後：{totals}"),
    "table.settle": ("Settle up", "結算"),
    "table.settle_hint": (
        "The fewest payments that square the table now:",
        "用最少筆付款結清目前的輸贏：",
    ),
    "table.all_square": ("All square: nobody owes anything.", "全部打平：沒有人欠錢。"),
    "table.export": ("Download the record:", "下載紀錄："),
    "table.history": ("History", "紀錄"),
    "table.history_empty": ("Nothing recorded yet.", "還沒有紀錄。"),
    "table.void": ("Void", "作廢"),
    "table.amend": ("Amend", "修改"),
    "table.void_title": ("Void event #{n}", "作廢第 #{n} 筆"),
    "table.voided": ("Event #{n} is void.", "第 #{n} 筆已作廢。"),
    "table.cancel": ("Cancel", "取消"),
    "table.reason": ("Why (kept in the history)", "原因（會留在紀錄裡）"),
    "table.by": ("Corrected by", "更正的人"),
    # A table: the history's lines
    "table.ev.draw": ("Drawn hand", "流局"),
    "table.ev.win_self": ("{winner} wins {tai} tai, self-drawn", "{winner} 自摸 {tai} 台"),
    "table.ev.win_from": (
        "{winner} wins {tai} tai from {discarder}",
        "{winner} 胡 {discarder} 放槍 {tai} 台",
    ),
    "table.ev.dealer_tai": ("+ {n} dealer tai", "+ 莊家台 {n}"),
    "table.ev.full_hand": ("(full hand)", "（整手牌計分）"),
    "table.ev.and": (" and ", "，"),
    "table.ev.liable": ("({name} pays for all)", "（{name} 包牌）"),
    "table.ev.payout": ("Instant payout to {player}: {event}", "{player} 即時收錢：{event}"),
    "table.ev.at_start": ("(held at the start)", "（起手就有）"),
    "table.ev.voids": ("Voids #{n}", "作廢 #{n}"),
    "table.ev.amends": ("Amends #{n}: {text}", "修改 #{n}：{text}"),
    "table.ev.correction": ("Correction", "更正"),
    "table.ev.reason": ("“{reason}” ({by})", "「{reason}」（{by}）"),
    "table.ev.unknown": ("who is not known", "未註明"),
    "table.ev.hand": ("Hand {n}", "第 {n} 局"),
    "table.ev.in_hand": ("In hand {n}", "第 {n} 局中"),
    "table.ev.context": ("{round} round, {dealer} dealing", "{round}風圈，{dealer} 做莊"),
    "table.ev.voided_by": ("Void (see #{n})", "已作廢（見 #{n}）"),
    "table.ev.amended_by": ("Amended (see #{n}); counts as shown", "已修改（見 #{n}），以此為準"),
    "payout.bite": ("Bite (cat and mouse, or rooster and centipede)", "咬（貓咬老鼠或雞咬蜈蚣）"),
    "payout.own_flowers": ("Own flower and own season", "本位花與本位季"),
    "payout.four_flowers": ("Four flowers", "四花（梅蘭菊竹）"),
    "payout.four_seasons": ("Four seasons", "四季（春夏秋冬）"),
    "payout.animal_set": ("All four animals (the set's own payout)", "四隻動物（組合本身）"),
    "payout.all_animals": (
        "All four animals (both bites and the set)",
        "四隻動物（兩次咬加組合）",
    ),
    "payout.exposed_kong": ("Exposed kong", "明槓"),
    "payout.concealed_kong": ("Concealed kong", "暗槓"),
    # A table: recording a hand
    "table.record_title": ("Record hand {n}", "記錄第 {n} 局"),
    "table.amend_title": ("Amend event #{n}", "修改第 #{n} 筆"),
    "table.amend_cancel": ("Stop amending", "不修改了"),
    "table.amend_save": ("Save the correction", "儲存更正"),
    "table.finished_notice": (
        "All the planned hands are played. Past hands can still be corrected.",
        "預定的局數都打完了。之前的紀錄仍然可以更正。",
    ),
    "table.kind": ("What happened", "結果"),
    "table.kind.win": ("A win", "胡牌"),
    "table.kind.draw": ("Drawn hand", "流局"),
    "table.kind.payout": ("Instant payout", "即時收錢"),
    "table.winner": ("Who won", "誰胡牌"),
    "table.from": ("Won on whose discard", "誰放槍"),
    "table.entry": ("Score by", "計分方式"),
    "table.entry_tai": ("Agreed tai", "直接輸入台數"),
    "table.entry_hand": ("The whole hand", "輸入整手牌"),
    "table.tai": ("Tai", "台數"),
    "table.tai_other": ("Other number of tai", "其他台數"),
    "table.preview_hint": (
        "Choose who won and how, then tap the tiles of the winning hand.",
        "先選誰胡牌、怎麼胡，再點選胡牌時的手牌。",
    ),
    "table.draw_hint": (
        "Nobody won: nobody pays, and the dealer keeps the deal.",
        "沒有人胡牌：不用付錢，莊家連莊。",
    ),
    "table.payout_player": ("Who receives it", "誰收錢"),
    "table.payout_event": ("For what", "收什麼"),
    "table.at_start": ("Held from the start", "起手就有"),
    "table.record": ("Record", "記錄"),
    "table.saving": ("Recording…", "記錄中…"),
    "table.recorded": ("Recorded as event #{n}.", "已記錄為第 #{n} 筆。"),
    "table.duplicate": (
        "Already recorded as event #{n}: nothing new.",
        "已經記錄過（第 #{n} 筆），沒有重複記錄。",
    ),
    "table.amended": ("Correction saved as event #{n}.", "更正已儲存為第 #{n} 筆。"),
    "table.not_recorded": ("Not recorded: {reason}", "沒有記錄：{reason}"),
    "table.need_winner": ("Choose who won.", "請選誰胡牌。"),
    "table.need_from": (
        "Choose whose discard it was, or self-draw.",
        "請選誰放槍，或選自摸。",
    ),
    "table.need_tai": ("Choose the tai.", "請選台數。"),
    "table.need_hand": ("Tap the tiles of the winning hand.", "請點選胡牌時的手牌。"),
    "table.need_player": ("Choose who receives it.", "請選誰收錢。"),
    "table.need_reason": ("Say why: a correction needs a reason.", "請寫原因：更正需要原因。"),
    # Several winners on one discard (tw), the whole hand's table discards, added kongs
    "mode.akong": ("Added kong", "加槓"),
    "table.several": ("Several players won on this discard", "一炮多響（多家胡同一張）"),
    "table.winners": ("Who won (tap each winner)", "誰胡牌（每位贏家都點）"),
    "table.tai_for": ("{name}'s tai", "{name} 的台數"),
    "table.tai_other_for": ("{name}: other number of tai", "{name}：其他台數"),
    "table.several_hint": (
        "Give each winner's agreed tai; the discarder pays each winner separately. "
        "The whole hand scores one winner at a time: to score by the tiles, record one winner.",
        "請輸入每位贏家的台數，放槍者分別付給每一家。"
        "整手牌計分一次只算一家：要用整手牌計分，請只記錄一位贏家。",
    ),
    "table.need_winners": ("Tap each player who won.", "請點選每位贏家。"),
    "table.need_discarder": (
        "Several winners share one discard: choose whose discard it was.",
        "多家胡牌一定是同一張放槍：請選誰放槍。",
    ),
    "table.need_tai_for": ("Choose {name}'s tai.", "請選 {name} 的台數。"),
    "table.need_discards": (
        "Discards so far must be a whole number, or blank.",
        "已打出的牌數必須是整數，或留空白。",
    ),
    # A live table: the stream, undo, the preview, the outbox, QR codes, length in rounds
    "offline.banner": (
        "You are offline: this is what this device last knew.",
        "目前離線：顯示的是這台裝置最後知道的內容。",
    ),
    "table.live": ("Live", "即時"),
    "table.reconnecting": ("Reconnecting…", "重新連線中…"),
    "table.offline": ("Offline", "離線"),
    "table.undo": ("Undo", "復原"),
    "table.undo_for": ("Undo event #{n}", "復原第 #{n} 筆"),
    "table.recorded_totals": (
        "Recorded as event #{n}. Totals now:",
        "已記錄為第 #{n} 筆。目前總分：",
    ),
    "table.undone": ("Event #{n} is undone.", "第 #{n} 筆已復原。"),
    "table.undo_refused": (
        "Not undone: event #{n} was corrected on another device meanwhile. See the history.",
        "沒有復原：第 #{n} 筆已在另一台裝置更正過。請看紀錄。",
    ),
    "table.pays_preview": ("Before you record: who pays whom", "記錄前確認：誰付給誰"),
    "table.pays_none": ("Nobody pays anything.", "沒有人要付錢。"),
    "table.pays_waiting": ("Working out who pays…", "計算誰要付…"),
    "table.outbox": ("Waiting to send", "等待送出"),
    "table.outbox_hint": (
        "Kept on this device; sent once when the connection returns.",
        "保存在這台裝置上；恢復連線時只會送出一次。",
    ),
    "table.kept_offline": (
        "Offline: kept on this device, waiting to send.",
        "離線：已保存在這台裝置上，等待送出。",
    ),
    "table.outbox_refused": ("The server refused it: {reason}", "伺服器拒收：{reason}"),
    "table.outbox_fix": ("Fix", "修改"),
    "table.outbox_discard": ("Discard", "捨棄"),
    "table.outbox_sent": ("Sent: event #{n}.", "已送出：第 #{n} 筆。"),
    "table.share": ("Share", "分享"),
    "table.qr_read": ("Scan to watch (read-only)", "掃描觀看（唯讀）"),
    "table.qr_write": ("Scan to record (write link)", "掃描記分（記分連結）"),
    "table.share_read_text": ("Follow our mahjong table", "來看我們這桌麻將"),
    "table.share_write_text": ("Record hands at our mahjong table", "幫我們這桌麻將記分"),
    "table.round_of": ("Round {n} of {total}", "第 {n}／{total} 圈"),
    "table.rounds_played": ("Every planned round played ({n} of {n})", "{n} 圈已打完"),
    "table.deal_of": ("deal {n} of 4", "第 {n}／4 莊"),
    "table.progress_rounds": ("{done} of {total} rounds played", "已打 {done}／{total} 圈"),
    "table.ev.stale": (
        "Scored with {dealer} dealing ({round} round, streak {streak}); the corrected record "
        "has {now_dealer} dealing ({now_round} round, streak {now_streak}). Amend this hand to "
        "change what it pays.",
        "記錄時由 {dealer} 做莊（{round}風圈，連莊 {streak}）；更正後的紀錄是 {now_dealer} "
        "做莊（{now_round}風圈，連莊 {now_streak}）。要改變付款金額，請更正這一局。",
    ),
    "tables.length": ("How long to play", "打多久"),
    "tables.length_open": ("No limit", "不限"),
    "tables.length_hands": ("Hands", "局數"),
    "tables.length_rounds": ("Full rounds (East to North)", "圈數（東風圈到北風圈）"),
    "tables.length_count": ("How many", "數量"),
    "tables.rounds_hint": (
        "Or play full rounds: one round is the deal going round all four players; 4 is East "
        "round through North round. Blank: no limit.",
        "或以圈計：莊家輪過四家為一圈；4 圈即東風圈打到北風圈。空白：不限。",
    ),
    "tables.error_rounds": (
        "The number of rounds must be a whole number, at least 1.",
        "圈數必須是至少 1 的整數。",
    ),
    # The same messages for a profile counted in faan (`hk`): `key@faan` (see `Translator`).
    "calc.title@faan": ("Score a hand", "計算番數"),
    "result.empty@faan": (
        "Add the tiles of a winning hand to see what it scores.",
        "加入食糊時的手牌，就會看到番數。",
    ),
    "result.tai@faan": ("{n} faan", "{n} 番"),
    "result.raw@faan": ("patterns add up to {n}", "牌型合計 {n} 番"),
    "result.no_patterns@faan": ("No scoring pattern", "沒有計番的牌型"),
    "result.under_minimum@faan": ("Under the minimum: nobody pays.", "未夠起糊番數：不用付。"),
    "result.waits@faan": ("Waits, and what each would score", "聽的牌與各自的番數"),
    "table.ev.win_self@faan": ("{winner} wins {tai} faan, self-drawn", "{winner} 自摸 {tai} 番"),
    "table.ev.win_from@faan": (
        "{winner} wins {tai} faan from {discarder}",
        "{winner} 食 {discarder} 出銃 {tai} 番",
    ),
    "table.entry_tai@faan": ("Agreed faan", "直接輸入番數"),
    "table.tai@faan": ("Faan", "番數"),
    "table.tai_other@faan": ("Other number of faan", "其他番數"),
    "table.need_tai@faan": ("Choose the faan.", "請選番數。"),
    "table.tai_for@faan": ("{name}'s faan", "{name} 的番數"),
    "table.tai_other_for@faan": ("{name}: other number of faan", "{name}：其他番數"),
    "table.need_tai_for@faan": ("Choose {name}'s faan.", "請選 {name} 的番數。"),
}

# A profile counts a hand in tai or (`hk`) in faan. Messages for tai have plain keys; a message
# that says faan instead has the key `key@faan`, used when a page shows an `hk` hand or table.

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
    # hk
    "seat_wind": "門風",
    "prevailing_wind": "圈風",
    "seven_flowers": "七隻花",
    "seven_pairs": "七對子",
}

ZH_NUMERALS = "一二三四五六七八九"
"""One to nine: the ranks of the suit tiles, as the tile faces and their names write them."""
_ZH_SUITS = {"m": "萬", "p": "筒", "s": "索"}
_ZH_HONORS = ("東風", "南風", "西風", "北風", "白板", "青發", "紅中")
_ZH_BONUS = ("梅", "蘭", "菊", "竹", "春", "夏", "秋", "冬", "貓", "鼠", "雞", "蜈蚣")


def tile_name(tile: Tile, lang: str) -> str:
    """A tile's name for a person: `5 of bamboo` or `五索`."""
    if lang != ZH_HANT:
        return tile.english
    if tile < Tile.EAST:
        return ZH_NUMERALS[tile.rank - 1] + _ZH_SUITS[tile.suit.value]
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


def translate(lang: str, key: str, unit: str = "tai", **fields: object) -> str:
    """The message `key` in `lang` (its `key@unit` form when there is one), its `{fields}`
    filled; the key itself if unknown."""
    pair = MESSAGES.get(f"{key}@{unit}") or MESSAGES.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == ZH_HANT else pair[0]
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

    def get(self, key: str, fallback: str) -> str:
        """The message `key`, or `fallback` when the catalogue has none."""
        return translate(self.lang, key, self.unit) if key in MESSAGES else fallback


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
