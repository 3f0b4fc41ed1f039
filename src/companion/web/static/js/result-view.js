// Drawing a scoring result (and the waits of a hand one tile short) for a person.
// Every text from the engine goes in as textContent, never as HTML.
import { pageData, patternName, t, tileName, tOr } from "./i18n.js";
import { el, isTileRun, miniGroup, SEATS, tileSvg } from "./tiles.js";

function verdict(kind, title, tai = "", detail = "") {
  const box = el("div", `verdict ${kind}`);
  box.dataset.verdict = kind;
  box.append(el("span", "verdict-title", title));
  if (tai) box.append(el("span", "verdict-tai", tai));
  if (detail) box.append(el("span", "verdict-detail", detail));
  return box;
}

function heading(text) {
  return el("h3", "", text);
}

function plainAmount(amount) {
  return Number.isInteger(amount) ? String(amount) : String(Number(amount.toFixed(4)));
}

/** Riichi's points, grouped by thousands as players write them (12,300). */
function points(amount) {
  return Number(amount).toLocaleString("en-US");
}

/** A short message in place of a result (not enough tiles yet, an error...). */
export function renderMessage(container, text, kind = "") {
  if (kind) {
    container.replaceChildren(verdict(kind, text));
  } else {
    container.replaceChildren(el("p", "hint", text));
  }
}

/** An API refusal ({"error", "error_key"?, "error_params"?}, or a message) shown like an invalid
 * hand. */
export function renderError(container, refusal) {
  const message = typeof refusal === "string" ? refusal : refusalText(refusal);
  container.replaceChildren(verdict("bad", t("result.invalid"), "", message));
}

// --- The engine's messages in the page's language ----------------------------------------------
// A refusal carries a stable key and its parameters beside the English `error` (docs/contract.md,
// "Refusals in a player's language"): tiles in MPSZ under `tile`/`*_tile` and `tiles`/`*_tiles`,
// pattern ids under `*_patterns`, shape ids under `shapes`, winds under `seat`/`*_seat`, event ids
// under `event`/`*_event` and `events`/`*_events`, groups under `melds` ("pung 777z"), a flower
// win under `flower_win`. Named here as the page names them.

/** Tiles as a player reads them: suit tiles run together by suit ("1 2 3 of circles", "一二三筒"),
 * the others by name. */
export function tilesText(tiles) {
  const ranks = t("tiles.ranks").split(" ");
  const join = pageData.lang === "en" ? " " : "";
  const parts = [];
  let run = null;
  for (const tile of tiles) {
    const suit = tile.at(-1);
    const rank = Number(tile.slice(0, -1));
    if ("mps".includes(suit) && rank >= 1 && rank <= 9 && tile.length === 2) {
      if (run?.suit !== suit) {
        run = { suit, ranks: [] };
        parts.push(run);
      }
      run.ranks.push(ranks[rank - 1] ?? String(rank));
    } else {
      run = null;
      parts.push(tileName(tile));
    }
  }
  const sep = t("refusal.list_sep");
  return parts
    .map((part) => (typeof part === "string" ? part : t(`tiles.run.${part.suit}`, { ranks: part.ranks.join(join) })))
    .join(sep);
}

/** A declared group as the request writes it (`pung 777z`, `chow 123m`): its kind's name, then
 * a chow's run or the one tile of a pung or kong. */
function meldText(meld) {
  const [kind, tiles = ""] = meld.split(" ");
  const suit = tiles.at(-1);
  const list = [...tiles.slice(0, -1)].map((digit) => digit + suit);
  const shown = kind === "chow" ? tilesText(list) : tileName(list[0] ?? tiles);
  return `${tOr(`meld.${kind}`, kind)}${pageData.lang === "en" ? " " : ""}${shown}`;
}

function paramText(name, value, patterns = []) {
  if (name === "tile" || name.endsWith("_tile")) return tileName(value);
  if (name === "tiles" || name.endsWith("_tiles")) return tilesText(value);
  if (name.endsWith("_patterns")) {
    return value
      .map((id) => patternName(id, patterns.find((pattern) => pattern.id === id)?.name ?? id.replaceAll("_", " ")))
      .join(t("refusal.list_sep"));
  }
  if (name === "shapes") return value.map((id) => t(`shape.${id}`)).join(t("refusal.or"));
  if (name === "seat" || name.endsWith("_seat")) return tOr(`seat.${value}`, t(`wind.${value}`));
  if (name === "event" || name.endsWith("_event")) return t(`event.${value}`);
  if (name === "events" || name.endsWith("_events")) {
    return value.map((id) => t(`event.${id}`)).join(t("refusal.list_sep"));
  }
  if (name === "flower_win") return t(`flower_win.${value}`);
  if (name === "melds") return value.map(meldText).join(t("refusal.list_sep"));
  if (name === "playing") {
    // An event's tables still playing (refusal.event_tables_playing): "table 2 of round 1".
    return value.map((table) => t("evpage.table_of_round", table)).join(t("refusal.list_sep"));
  }
  if (Array.isArray(value)) return value.join(t("refusal.list_sep"));
  return String(value);
}

function keyedText(key, params, patterns) {
  if (!key || !(key in pageData.messages || `${key}@faan` in pageData.messages)) return null;
  const fields = {};
  for (const [name, value] of Object.entries(params ?? {})) fields[name] = paramText(name, value, patterns);
  return t(key, fields);
}

/** A refusal in the page's language: its key's message, else the engine's English `error`. */
export function refusalText(data) {
  return keyedText(data?.error_key, data?.error_params) ?? data?.error ?? "";
}

/** Why a valid hand pays nothing: what counted toward the table's minimum (result.short_of_minimum). */
export function minimumText(result) {
  const short = result.short_of_minimum;
  if (!short) return t("result.under_minimum");
  // English is the engine's own note (it agrees its verb with the patterns left out).
  if (pageData.lang === "en") return short.note;
  const key = short.left_out.length ? "minimum.left_out" : "minimum.short";
  const params = { counted: short.counted, total: short.total, minimum: short.minimum };
  params.left_out_patterns = short.left_out;
  return keyedText(key, params, result.patterns) ?? short.note;
}

/** Whether a pattern was earned by every group of the reading (no need to draw them again). */
function wholeHand(earned, groups) {
  if (!groups?.length || earned.length !== groups.length) return false;
  const rest = [...groups];
  for (const item of earned) {
    const index = rest.indexOf(item);
    if (index < 0) return false;
    rest.splice(index, 1);
  }
  return true;
}

function renderPatterns(result) {
  const parts = [heading(t("result.patterns"))];
  if (!result.patterns.length) {
    parts.push(el("p", "hint", t("result.no_patterns")));
    return parts;
  }
  const list = el("ul", "patterns");
  for (const pattern of result.patterns) {
    const item = el("li", "pattern");
    item.dataset.pattern = pattern.id;
    const name = el("span", "pattern-name", patternName(pattern.id, pattern.name, result.profile));
    if (pattern.count > 1) name.append(el("span", "times", t("result.times", { n: pattern.count })));
    item.append(name, el("span", "pattern-tai", t("result.tai", { n: pattern.tai })));
    const earned = (pattern.earned_by ?? []).filter((text) => text);
    if (wholeHand(earned, result.groups)) {
      item.append(el("span", "pattern-tiles hint", t("result.whole_hand")));
    } else if (earned.length) {
      const tiles = el("div", "pattern-tiles");
      for (const text of earned) tiles.append(isTileRun(text) ? miniGroup(text) : el("span", "", text));
      item.append(tiles);
    }
    list.append(item);
  }
  parts.push(list);
  const total = el("div", "total");
  total.dataset.total = String(result.tai);
  const label = el("span", "", t("result.total"));
  if (result.raw_tai !== result.tai) {
    label.append(" ", el("small", "", `(${t("result.raw", { n: result.raw_tai })})`));
  }
  total.append(label, el("span", "", t("result.tai", { n: result.tai })));
  parts.push(total);
  return parts;
}

function renderReading(result) {
  if (!result.groups?.length) return [];
  const parts = [heading(t("result.reading"))];
  const reading = el("div", "reading");
  let marked = false;
  for (const group of result.groups) {
    const winning = !marked && group === result.winning_group;
    marked ||= winning;
    reading.append(miniGroup(group, winning));
  }
  parts.push(reading);
  if (result.wait) {
    parts.push(el("p", "hint", t("result.wait_role", { role: t(`role.${result.wait}`) })));
  }
  if (result.waits?.length) {
    const tiles = result.waits.map((tile) => tileName(tile)).join(t("refusal.list_sep"));
    parts.push(el("p", "hint", t("result.waited_on_list", { tiles })));
  }
  return parts;
}

function renderPayments(result, amountText = plainAmount) {
  const parts = [heading(t("result.payments"))];
  if (result.meets_minimum === false) {
    parts.push(el("p", "hint", t("result.under_minimum")));
    return parts;
  }
  const transfers = el("ul", "transfers");
  for (const transfer of result.transfers ?? []) {
    const item = el("li");
    const payer = t(`seat.${transfer.from}`);
    const payee = t(`seat.${transfer.to}`);
    item.append(
      el("span", "", t("result.pays", { payer, payee })),
      el("span", "amount", amountText(transfer.amount)),
    );
    transfers.append(item);
  }
  parts.push(transfers);
  // Riichi's points run to six digits: set smaller, so that +12,300 keeps to its cell.
  const net = el("dl", amountText === plainAmount ? "net" : "net points");
  net.setAttribute("aria-label", t("result.net"));
  // The seats at the profile's table (sanma's three): nobody sits North at a table of three.
  const seats = pageData.profiles?.find((profile) => profile.id === result.profile)?.seats ?? SEATS;
  for (const seat of seats) {
    const amount = result.payments?.[seat] ?? 0;
    const cell = el("div", amount > 0 ? "plus" : amount < 0 ? "minus" : "");
    if (seat === result.winner) cell.classList.add("winner");
    cell.dataset.seat = seat;
    const label = el("dt", "", t(`seat.${seat}`));
    if (seat === result.winner) label.append(el("small", "", t("result.winner")));
    cell.append(label, el("dd", "", (amount > 0 ? "+" : "") + amountText(amount)));
    net.append(cell);
  }
  parts.push(net);
  if (result.dealer_tai) parts.push(el("p", "hint", t("result.dealer_tai", { n: result.dealer_tai })));
  return parts;
}

/** A scoring result: the verdict, the patterns with their tiles, the reading, payments.
 * `payments: false` leaves the payments out where the page says who pays whom itself (a
 * table's whole-hand entry, by the players' names): said once, in one order. */
export function renderResult(container, result, { payments = true } = {}) {
  if (result.valid && result.unit === "han") {
    renderHanResult(container, result, payments);
    return;
  }
  if (!result.valid) {
    const parts = [verdict("bad", t("result.invalid"), "", refusalText(result))];
    if (result.waits?.length) {
      const row = el("div", "reading");
      for (const tile of result.waits) row.append(tileSvgLabelled(tile));
      parts.push(heading(t("result.waited_on")), row);
    }
    container.replaceChildren(...parts);
    return;
  }
  // A legal hand under the table's minimum pays nothing: said as such, never as a paying win.
  const short = result.meets_minimum === false;
  const parts = [
    short
      ? verdict("short", t("result.short_title"), t("result.tai", { n: result.tai }), minimumText(result))
      : verdict("good", t("result.valid"), t("result.tai", { n: result.tai })),
  ];
  parts.push(...renderPatterns(result), ...renderReading(result));
  if (payments) parts.push(...renderPayments(result));
  // The minimum's note is said in the verdict, in the page's language: not again in English.
  const shown = (result.notes ?? []).filter((note) => note !== result.short_of_minimum?.note);
  if (shown.length) {
    const notes = el("ul", "notes");
    for (const note of shown) notes.append(el("li", "", note));
    parts.push(heading(t("result.notes")), notes);
  }
  container.replaceChildren(...parts);
}

// --- Han and fu (riichi) ------------------------------------------------------------------------

/** The points as players call them: `8000`, `2000-4000`, `4000 all`. */
function callText(call) {
  const all = /^(\d+) all$/.exec(call ?? "");
  return all ? t("result.call_all", { points: all[1] }) : (call ?? "");
}

/** The limit a hand reached (Mangan 満貫...), a double yakuman counted: "" below mangan. */
function limitText(result) {
  if (!result.limit) return "";
  if (result.limit === "yakuman" && result.yakuman > 1) {
    return t("result.yakuman_times", { n: result.yakuman });
  }
  return t(`limit.${result.limit}`);
}

/** "3 han 40 fu · Mangan", or the yakuman. */
function hanFuText(result) {
  const limit = limitText(result);
  if (result.yakuman) return limit;
  const hanFu = t("result.han_fu", { han: result.han, fu: result.fu });
  return limit ? `${hanFu} · ${limit}` : hanFu;
}

/** A valid result's value in one line, for the bar and the waits: riichi's call, else tai. */
/** The calculator's one-line verdict of a scored hand: its kind ("good", or "short" under the
 * table's minimum) and its text. */
export function verdictLine(result) {
  if (result.meets_minimum === false) return ["short", `${t("result.short_title")} · ${valueText(result)}`];
  return ["good", `${t("result.valid")} · ${valueText(result)}`];
}

export function valueText(result) {
  if (result.unit === "han") return callText(result.call);
  return t("result.tai", { n: result.tai });
}

function patternValue(pattern) {
  if (pattern.yakuman) {
    return pattern.yakuman > 1 ? t("result.yakuman_times", { n: pattern.yakuman }) : t("limit.yakuman");
  }
  return t("result.han", { n: pattern.han });
}

/** A fu item's reason (`base`, `pung 777z`, `wait closed`) in words, with its tiles. */
function fuLabel(reason) {
  const [kind, rest = ""] = reason.split(" ");
  const label = el("span", "fu-name");
  label.dataset.reason = reason;
  if (kind === "wait") {
    label.textContent = tOr(`role.${rest}`, rest);
  } else if (rest) {
    label.textContent = tOr(`fu.${kind}`, kind);
    label.append(miniGroup(rest));
  } else {
    label.textContent = tOr(`fu.${kind}`, kind.replaceAll("_", " "));
  }
  return label;
}

function renderYaku(result) {
  const parts = [heading(t("result.yaku"))];
  const list = el("ul", "patterns");
  for (const pattern of result.patterns) {
    const item = el("li", "pattern");
    item.dataset.pattern = pattern.id;
    const name = el("span", "pattern-name", patternName(pattern.id, pattern.name, result.profile));
    if (pattern.count > 1) name.append(el("span", "times", t("result.times", { n: pattern.count })));
    item.append(name, el("span", "pattern-tai", patternValue(pattern)));
    list.append(item);
  }
  parts.push(list);
  const total = el("div", "total");
  total.dataset.total = result.yakuman ? `${result.yakuman} yakuman` : `${result.han} han`;
  const value = result.yakuman
    ? limitText(result) || t("limit.yakuman")
    : t("result.han", { n: result.han });
  total.append(el("span", "", t("result.total")), el("span", "", value));
  parts.push(total);
  return parts;
}

/** The fu on one line, as players add them up: "Base 20, Closed ron 10, Pung 666s 4 → 40 fu"
 * (rounded up to a ten, said when it was). */
function renderFu(result) {
  if (result.yakuman || !result.fu_items?.length) return [];
  const line = el("p", "fu-line");
  line.dataset.fuTotal = String(result.fu);
  let raw = 0;
  result.fu_items.forEach((item, index) => {
    raw += item.fu;
    if (index) line.append(t("refusal.list_sep"));
    const part = el("span", "fu-item");
    part.dataset.fu = item.for;
    part.append(fuLabel(item.for), " ", el("b", "", String(item.fu)));
    line.append(part);
  });
  const total = el("span", "fu-total", ` → ${t("result.fu_n", { n: result.fu })}`);
  line.append(total);
  if (raw !== result.fu) line.append(" ", el("small", "hint", `(${t("result.fu_rounded", { n: raw })})`));
  return [heading(t("result.fu")), line];
}

/** A riichi result: the call first and large, with han, fu and the limit; the deposits; each
 * yaku and dora with its han; the fu with what made them; the reading; the payments. */
function renderHanResult(container, result, payments = true) {
  const box = el("div", "verdict good han-verdict");
  box.dataset.verdict = "good";
  box.append(el("span", "verdict-title", t("result.valid")));
  const call = el("span", "verdict-tai verdict-call", callText(result.call));
  call.dataset.call = result.call;
  box.append(call);
  const hanFu = el("span", "verdict-detail verdict-han-fu", hanFuText(result));
  hanFu.dataset.hanFu = "";
  box.append(hanFu);
  if (result.deposits) {
    const deposits = el("span", "verdict-detail verdict-deposits", t("result.deposits", { points: points(result.deposits) }));
    deposits.dataset.deposits = String(result.deposits);
    box.append(deposits);
  }
  const parts = [box, ...renderYaku(result), ...renderFu(result), ...renderReading(result)];
  if (payments) parts.push(...renderPayments(result, points));
  if (result.notes?.length) {
    const notes = el("ul", "notes");
    for (const note of result.notes) notes.append(el("li", "", note));
    parts.push(heading(t("result.notes")), notes);
  }
  container.replaceChildren(...parts);
}

function tileSvgLabelled(tile) {
  const wrapper = el("span", "mini-group");
  wrapper.append(tileSvg(tile, tileName(tile)));
  return wrapper;
}

function waitSummary(result) {
  if (!result) return "";
  if (!result.valid) return refusalText(result);
  const han = result.unit === "han";
  const names = result.patterns.map((pattern) => {
    const name = patternName(pattern.id, pattern.name, result.profile);
    // Riichi's dora count several times in one item (three dora): said, as the result says it.
    return han && pattern.count > 1 ? `${name} ${t("result.times", { n: pattern.count })}` : name;
  });
  if (han) names.unshift(hanFuText(result));
  return names.join(" · ");
}

/** The waits of a hand one tile short, each a button that adds it as the winning tile. */
export function renderWaits(container, data, onPick) {
  const parts = [];
  if (!data.waits.length) {
    parts.push(verdict("waiting", t("result.one_short"), "", t("result.no_waits")));
    container.replaceChildren(...parts);
    return;
  }
  const names = data.waits.map(tileName).join(t("refusal.list_sep"));
  parts.push(verdict("waiting", t("result.one_short"), "", names));
  parts.push(heading(t("result.waits")));
  const list = el("ul", "waits");
  for (const tile of data.waits) {
    const result = data.scores?.[tile];
    const button = el("button", "wait-button");
    button.type = "button";
    button.dataset.wait = tile;
    button.setAttribute("aria-label", t("result.use_wait", { name: tileName(tile) }));
    const name = el("span", "wait-name", tileName(tile));
    const summary = waitSummary(result);
    if (summary) name.append(el("span", "wait-detail", summary));
    const valid = result?.valid;
    const tai = el("span", valid ? "wait-tai" : "wait-tai none");
    tai.textContent = valid ? valueText(result) : t("result.invalid");
    button.append(tileSvg(tile), name, tai);
    button.addEventListener("click", () => onPick(tile));
    const item = el("li");
    item.append(button);
    list.append(item);
  }
  parts.push(list);
  container.replaceChildren(...parts);
}
