// An event's organiser page (/e/{id}/organiser). The event's token comes as a table's write link
// does: in the link's fragment (`#token=...`), which browsers never send to a server. Here it is
// kept in this device's localStorage, taken out of the address bar, and sent as
// `Authorization: Bearer` to fetch the organiser's part of the page (seating with the tables'
// write links, the actions, the record) and with every action to the JSON API, which checks it
// whatever the page shows.
import { followEvent, refreshBoard, version } from "./event-board.js";
import { dayRequest } from "./event-day.js";
import { startTimers } from "./event-timer.js";
import { pageData, t } from "./i18n.js";
import { refusalText } from "./result-view.js";
import { copyText, qrSvg } from "./share.js";
import { forgetTokens } from "./table-store.js";
import { fetchPart, showAccess, takeToken, tokenStore } from "./token-store.js";

const store = tokenStore("companion.events");
const event = pageData.event;
const panel = document.getElementById("organiser-panel");
const accessNotice = document.getElementById("access-notice");
let token = "";
let panelVersion = -1; // the event's version the organiser's part shows
let loading = null; // the organiser's part being fetched, if it is
const forgotten = new Set(); // tokens forgotten here: a fetch still under way is not shown

function headers(json = false) {
  const found = { Accept: json ? "application/json" : "text/html", Authorization: `Bearer ${token}` };
  if (json) found["Content-Type"] = "application/json";
  return found;
}

/** What the organiser has typed or chosen in the actions' forms, by field id: the fields they
 * changed only (an untouched one takes the fresh page's value, e.g. the round now current). */
function typedValues() {
  const values = new Map();
  for (const field of panel.querySelectorAll("form[data-action] input[id], form[data-action] select[id]")) {
    const initial = field.tagName === "SELECT"
      ? ([...field.options].find((option) => option.defaultSelected) ?? field.options[0])?.value
      : field.defaultValue;
    if (field.value !== initial) values.set(field.id, field.value);
  }
  return values;
}

/** Put typed values back into the fresh forms (a choice no longer offered is dropped). */
function restoreValues(values) {
  for (const [id, value] of values) {
    const field = document.getElementById(id);
    if (!field || !panel.contains(field)) continue;
    if (field.tagName === "SELECT" && ![...field.options].some((option) => option.value === value)) continue;
    field.value = value;
  }
}

/**
 * The organiser's part, fetched with the token: "ok", "refused" or "unknown" (no answer).
 * `keep`: what the organiser was typing stays (a hand at a table must not wipe a half-written
 * penalty); after their own action the forms start afresh.
 */
async function loadPanel(candidate = token, { keep = true } = {}) {
  const { verdict, body } = await fetchPart(pageData.api.panel, candidate);
  if (verdict !== "ok") return verdict;
  if (forgotten.has(candidate)) return "refused";
  panelVersion = Number(body.dataset.version);
  const status = document.getElementById("action-status")?.textContent ?? "";
  const typed = keep ? typedValues() : new Map();
  const focused = panel.contains(document.activeElement) ? document.activeElement.id : "";
  const open = [...panel.querySelectorAll("details[open]")].map((node) => node.dataset.writeLink ?? node.querySelector("summary")?.textContent);
  panel.replaceChildren(document.importNode(body, true));
  const line = document.getElementById("action-status");
  if (line) line.textContent = status;
  for (const details of panel.querySelectorAll("details")) {
    const name = details.dataset.writeLink ?? details.querySelector("summary")?.textContent;
    if (open.includes(name)) details.open = true;
  }
  restoreValues(typed);
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  drawQrCodes();
  localTimes();
  startTimers(panel);
  return "ok";
}

/** The organiser's part brought up to the event's version: one fetch at a time, and none when
 * it shows that version already (a button is not swapped from under a finger for nothing). */
async function refreshPanel({ keep = true } = {}) {
  while (loading) await loading;
  if (!token || panelVersion >= version()) return;
  loading = loadPanel(token, { keep });
  await loading;
  loading = null;
}

/** The record's times in the reader's time zone (the server writes them in UTC). */
function localTimes() {
  const clock = new Intl.DateTimeFormat(pageData.lang, { hour: "2-digit", minute: "2-digit" });
  for (const node of panel.querySelectorAll("time[datetime]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) node.textContent = clock.format(when);
  }
}

function drawQrCodes() {
  for (const details of panel.querySelectorAll("details[data-write-link]")) {
    const box = details.querySelector("[data-qr]");
    if (details.open && !box.firstChild) box.append(qrSvg(details.dataset.writeLink, box.dataset.label));
  }
}

/** Copy a link from its box, and say whether it was copied or is selected to copy by hand. */
async function copyLink(input) {
  const verdict = await copyText(input.value, input);
  say(t(verdict === "copied" ? "table.copied" : "table.copy_manual"));
}

function showNewEvent(value) {
  const box = document.getElementById("new-event");
  const input = document.getElementById("organiser-link");
  input.value = `${pageData.shareBase}/e/${event.id}#token=${encodeURIComponent(value)}`;
  box.hidden = false;
  document.getElementById("copy-organiser-link").addEventListener("click", () => copyLink(input));
}

async function openWithToken() {
  token = await takeToken({
    store,
    id: event.id,
    name: event.name,
    load: async (candidate) => {
      const verdict = await loadPanel(candidate);
      if (verdict === "ok") accessNotice.hidden = true;
      return verdict;
    },
    refused: () => {
      accessNotice.textContent = t("evpage.token_refused");
      accessNotice.hidden = false;
    },
    // Just started on the events page: the organiser's link is shown once, to keep.
    shown: showNewEvent,
    showAccess,
  });
}

/** Forget the organiser's link on this device, as a table's page forgets its write link: its
 * entry here, then every other trace of the token (the address bar, Web Storage, Cache Storage);
 * the organiser's part (every table's write link) leaves the page. */
async function forget() {
  if (!window.confirm(t("evpage.forget_confirm"))) return;
  const dropped = token;
  forgotten.add(dropped);
  token = "";
  panelVersion = -1;
  panel.replaceChildren();
  store.drop(event.id);
  await forgetTokens([dropped]);
  showAccess(token);
}

/** An idempotency key for one action: a retry after a lost answer sends the same key, so the
 * server records the action once. */
function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `web-${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** What each action sends to the JSON API (/api/events/{id}/...). */
function request(form) {
  const day = dayRequest(form, pageData.api.event);
  if (day) return day;
  const data = Object.fromEntries(new FormData(form));
  const round = Number(form.dataset.round);
  const by = data.by ?? "";
  switch (form.dataset.action) {
    case "seat":
      return { url: `${pageData.api.event}/rounds`, body: { round } };
    case "unseat":
      return { url: `${pageData.api.event}/unseat`, body: { round, by } };
    case "timer":
      return { url: `${pageData.api.event}/timers`, body: { round, minutes: Number(data.minutes) } };
    case "adjust":
      return {
        url: `${pageData.api.event}/penalties`,
        body: { player: data.player, amount: data.amount.trim(), reason: data.reason, by, key: form.dataset.key },
      };
    default:
      return {
        url: `${pageData.api.event}/withdrawals`,
        body: { player: data.player, after_round: Number(data.after), by, key: form.dataset.key },
      };
  }
}

/** A line under the actions' heading (looked up each time: the organiser's part is swapped). */
function say(text) {
  const line = document.getElementById("action-status");
  if (line) line.textContent = text;
}

/**
 * Ask in the page's dialog; true when the organiser chose `ok`. `tables`: the tables still
 * playing, as the API's refusal lists them (each linked to its page).
 */
function askConfirm({ title, text, ok, cancel, tables = [] }) {
  const dialog = document.getElementById("confirm-dialog");
  document.getElementById("confirm-title").textContent = title;
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-ok").textContent = ok;
  document.getElementById("confirm-cancel").textContent = cancel;
  const list = document.getElementById("confirm-tables");
  list.replaceChildren(
    ...tables.map((table) => {
      const item = document.createElement("li");
      item.dataset.table = table.table;
      const link = document.createElement("a");
      link.href = `/t/${encodeURIComponent(table.table)}`;
      link.textContent = `${t("evpage.round_n", { n: table.round })} · ${t("evpage.table_n", { n: table.number })}`;
      item.append(link);
      return item;
    }),
  );
  list.hidden = !tables.length;
  dialog.returnValue = "";
  dialog.showModal();
  document.getElementById("confirm-cancel").focus(); // the safe choice first
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
  });
}

async function act(form, extra = {}) {
  // One key per action, kept while its answer is unknown: sent again, it records nothing new.
  form.dataset.key ||= newKey();
  const { url, body } = request(form);
  Object.assign(body, extra);
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  let response;
  let answer = {};
  try {
    response = await fetch(url, { method: "POST", headers: headers(true), body: JSON.stringify(body) });
    answer = await response.json().catch(() => ({}));
  } catch {
    say(t("result.network"));
    button.disabled = false;
    return;
  }
  button.disabled = false;
  delete form.dataset.key; // answered: the next action is another one
  if (response.status === 409 && answer.error_key === "refusal.event_tables_playing" && !body.confirm) {
    // Tables of the rounds before still play: seat the round only once the organiser has seen
    // which (issue 37: it was one tap).
    const round = answer.error_params?.round ?? body.round;
    const seat = await askConfirm({
      title: t("evpage.seat_confirm_title"),
      text: t("evpage.seat_confirm", { n: round }),
      ok: t("evpage.seat_anyway", { n: round }),
      cancel: t("evpage.seat_wait"),
      tables: answer.error_params?.playing ?? [],
    });
    if (seat) await act(form, { confirm: true });
    else form.querySelector("button[type=submit]")?.focus();
    return;
  }
  if (!response.ok) {
    say(t("evpage.action_refused", { why: refusalText(answer) || response.status }));
    return;
  }
  await refreshBoard();
  await refreshPanel({ keep: false });
  // Done: its form starts afresh (a live update may have kept what was typed in it).
  panel.querySelector(`form[data-action="${form.dataset.action}"]`)?.reset();
  say(t(`evpage.done.${form.dataset.action}`, { player: body.player ?? "", n: body.round ?? "" }));
}

panel.addEventListener("submit", (submitted) => {
  const form = submitted.target.closest("form[data-action]");
  if (!form) return;
  submitted.preventDefault();
  if (form.dataset.action === "withdraw" && !window.confirm(t("evpage.withdraw_confirm", { player: form.player.value }))) return;
  if (form.dataset.action === "unseat") {
    const n = form.dataset.round;
    askConfirm({
      title: t("evpage.unseat_confirm_title", { n }),
      text: t("evpage.unseat_confirm"),
      ok: t("evpage.unseat_submit"),
      cancel: t("evpage.unseat_keep"),
    }).then((yes) => (yes ? act(form) : undefined));
    return;
  }
  act(form);
});
panel.addEventListener("toggle", drawQrCodes, true);
panel.addEventListener("click", async (clicked) => {
  if (clicked.target.closest("#print-seating")) {
    window.print();
    return;
  }
  const copy = clicked.target.closest("[data-copy-link]");
  if (copy) await copyLink(copy.parentElement.querySelector("input"));
});

document.getElementById("forget-organiser").addEventListener("click", forget);
await openWithToken();
startTimers();
followEvent(async () => {
  const shown = await refreshBoard();
  await refreshPanel();
  return shown;
});
document.body.dataset.ready = "true";
