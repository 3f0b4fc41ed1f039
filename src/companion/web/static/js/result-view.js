// Drawing a scoring result (and the waits of a hand one tile short) for a person.
// Every text from the engine goes in as textContent, never as HTML.
import { patternName, t, tileName } from "./i18n.js";
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

function amountText(amount) {
  return Number.isInteger(amount) ? String(amount) : String(Number(amount.toFixed(4)));
}

/** A short message in place of a result (not enough tiles yet, an error...). */
export function renderMessage(container, text, kind = "") {
  if (kind) {
    container.replaceChildren(verdict(kind, text));
  } else {
    container.replaceChildren(el("p", "hint", text));
  }
}

/** An API refusal ({"error": ...}) shown like an invalid hand. */
export function renderError(container, message) {
  container.replaceChildren(verdict("bad", t("result.invalid"), "", message));
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
    const name = el("span", "pattern-name", patternName(pattern.id, pattern.name));
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
    const tiles = result.waits.map((tile) => tileName(tile)).join(", ");
    parts.push(el("p", "hint", t("result.waited_on_list", { tiles })));
  }
  return parts;
}

function renderPayments(result) {
  const parts = [heading(t("result.payments"))];
  if (!result.meets_minimum) {
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
  const net = el("dl", "net");
  net.setAttribute("aria-label", t("result.net"));
  for (const seat of SEATS) {
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

/** A scoring result: the verdict, the patterns with their tiles, the reading, payments. */
export function renderResult(container, result) {
  if (!result.valid) {
    const parts = [verdict("bad", t("result.invalid"), "", result.error ?? "")];
    if (result.waits?.length) {
      const row = el("div", "reading");
      for (const tile of result.waits) row.append(tileSvgLabelled(tile));
      parts.push(heading(t("result.waited_on")), row);
    }
    container.replaceChildren(...parts);
    return;
  }
  const detail = result.meets_minimum ? "" : t("result.under_minimum");
  const parts = [verdict("good", t("result.valid"), t("result.tai", { n: result.tai }), detail)];
  parts.push(...renderPatterns(result), ...renderReading(result), ...renderPayments(result));
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
  if (!result.valid) return result.error ?? "";
  return result.patterns.map((pattern) => patternName(pattern.id, pattern.name)).join(" · ");
}

/** The waits of a hand one tile short, each a button that adds it as the winning tile. */
export function renderWaits(container, data, onPick) {
  const parts = [];
  if (!data.waits.length) {
    parts.push(verdict("waiting", t("result.one_short"), "", t("result.no_waits")));
    container.replaceChildren(...parts);
    return;
  }
  const names = data.waits.map(tileName).join(", ");
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
    tai.textContent = valid ? t("result.tai", { n: result.tai }) : t("result.invalid");
    button.append(tileSvg(tile), name, tai);
    button.addEventListener("click", () => onPick(tile));
    const item = el("li");
    item.append(button);
    list.append(item);
  }
  parts.push(list);
  container.replaceChildren(...parts);
}
