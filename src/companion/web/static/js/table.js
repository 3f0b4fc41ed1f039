// A table's page: the write token (from the write link's fragment, kept in localStorage),
// recording hands through the JSON API (who pays whom shown before Record, Undo after it),
// voiding and amending, and the board kept current by the table's live stream. A hand recorded
// offline waits in the outbox and is sent once when the connection returns.
// Without a token the page is the spectator view: the server refuses writes either way.
import { HandEditor } from "./hand-editor.js";
import { pageData, setUnit, t } from "./i18n.js";
import { LiveTable } from "./live.js";
import * as outbox from "./outbox.js";
import { renderError, renderMessage, renderResult } from "./result-view.js";
import { qrSvg, shareLink } from "./share.js";
import { forgetTable, rememberTable, tokenFor } from "./table-store.js";
import { el } from "./tiles.js";

const UNDO_MS = 120_000;
const UNDO_REASON = "undone by the recorder";
const table = pageData.table;
const api = pageData.api;
const profile = pageData.profiles.find((item) => item.id === table.profile) ?? pageData.profiles[0];
setUnit(profile.unit);

const form = document.getElementById("record-form");
const recordCard = document.getElementById("record");
const recordTitle = recordCard.querySelector("[data-record-title]");
const submitButton = document.getElementById("record-submit");
const recordStatus = document.getElementById("record-status");
const amendFields = document.getElementById("amend-fields");
const amendCancel = document.getElementById("amend-cancel");
const amendReason = document.getElementById("amend-reason");
const finishedNotice = document.getElementById("finished-notice");
const taiOther = document.getElementById("tai-other");
const severalToggle = document.getElementById("several"); // tw only: several winners, one discard
const tableDiscards = document.getElementById("table-discards"); // tw only
const preview = document.getElementById("hand-preview");
const accessNotice = document.getElementById("access-notice");
const share = document.getElementById("share");
const dialog = document.getElementById("void-dialog");
const voidForm = document.getElementById("void-form");
const voidStatus = document.getElementById("void-status");
const liveStatus = document.getElementById("live-status");
const confirmation = document.getElementById("confirmation");
const undoButton = document.getElementById("undo");
const paysPreview = document.getElementById("pays-preview");
const paysBody = document.getElementById("pays-preview-body");
const outboxBox = document.getElementById("outbox");
const outboxList = document.getElementById("outbox-list");
const editor = new HandEditor(document.getElementById("table-hand"));
editor.setProfile({ sets: profile.sets, animals: profile.animals });

let token = "";
let state = JSON.parse(document.getElementById("board-state").textContent);
let mode = "record"; // or "amend"
let amendSeq = 0;
let amendVersion = 0; // the version of the event being amended, as this page saw it
let recordKey = newKey();
let voidSeq = 0;
let voidVersion = 0;
let voidKey = newKey();
let busy = false;
let lastBoard = "";
let previewTimer = 0;
let previewController = null;
let undoTimer = 0;
let undoable = null; // {seq}: the hand this device just recorded
let paysTimer = 0;
let paysController = null;
let refreshTimer = 0;
let qrToken = null; // the token the write link's QR code was drawn for

/** A fresh idempotency key: one per entry, reused when the same entry is sent again. */
function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `web-${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

// --- The write token ------------------------------------------------------------------------

function linkFor(withToken) {
  const base = `${location.origin}/t/${table.id}`;
  return withToken ? `${base}#token=${encodeURIComponent(token)}` : base;
}

/** Whether the server takes `candidate` as this table's write token: "write", "refused", or
 * "unknown" (no answer: the network, the server busy). */
async function checkToken(candidate) {
  try {
    const response = await fetch(api.access, {
      headers: { Accept: "application/json", Authorization: `Bearer ${candidate}` },
      cache: "no-store",
    });
    if (response.ok) return "write";
    if (response.status === 401 || response.status === 403) return "refused";
  } catch {
    // fall through: not known
  }
  return "unknown";
}

/** The write link's fragment: keep the token on this device and take it out of the address bar.
 * A link's token is checked with the server first: one the server refuses never replaces the
 * token this device already writes with. */
async function takeToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  const stored = tokenFor(table.id);
  if (fromLink && fromLink !== stored) {
    const verdict = await checkToken(fromLink);
    if (verdict === "refused") {
      history.replaceState(null, "", location.pathname + location.search);
      token = stored;
      accessNotice.textContent = t(stored ? "table.link_refused" : "table.token_rejected");
      accessNotice.hidden = false;
      if (token) rememberTable(table.id, { seen: Date.now(), players: table.players });
      return;
    }
    if (verdict === "unknown") {
      token = fromLink; // for this page only; the fragment stays, so a reload checks again
      return;
    }
  }
  if (fromLink) {
    token = fromLink;
    const kept = rememberTable(table.id, {
      token,
      players: table.players,
      profile: table.profile,
      seen: Date.now(),
    });
    if (params.get("new") === "1") {
      document.getElementById("created-notice").hidden = false;
      share.open = true;
    }
    // Kept: the address bar shows the read-only link. Not kept (no storage): the fragment
    // stays, so that a reload still finds the token.
    const hash = kept ? "" : `#token=${encodeURIComponent(token)}`;
    history.replaceState(null, "", location.pathname + location.search + hash);
    return;
  }
  token = stored;
  if (token) rememberTable(table.id, { seen: Date.now(), players: table.players });
}

function applyAccess() {
  const writer = Boolean(token);
  for (const node of document.querySelectorAll("[data-writer-only]")) node.hidden = !writer;
  for (const node of document.querySelectorAll("[data-reader-only]")) node.hidden = writer;
  document.getElementById("write-link").value = writer ? linkFor(true) : "";
  document.getElementById("read-link").value = linkFor(false);
  document.body.dataset.access = writer ? "write" : "read";
  if (qrToken !== token) {
    qrToken = token;
    drawWriteQr();
  }
}

function refused(status) {
  accessNotice.textContent = t(status === 401 ? "table.token_missing" : "table.token_rejected");
  accessNotice.hidden = false;
  // One true state: a token the server refuses does not record here, so the page says so.
  token = "";
  applyAccess();
}

// --- Talking to the API ---------------------------------------------------------------------

async function send(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { error: t("result.network") };
  }
  return { status: response.status, data };
}

/** A line under the history's heading, in the page's flow: it covers nothing, and goes with
 * the next refresh of the board. */
function showFlash(text) {
  const card = document.getElementById("history");
  if (!card) return;
  card.querySelector(".flash")?.remove();
  const line = el("p", "flash", text);
  line.setAttribute("role", "status");
  card.querySelector("h2")?.after(line);
}

// --- The board ------------------------------------------------------------------------------

function localTimes(root = document) {
  const format = new Intl.DateTimeFormat(pageData.lang, { hour: "2-digit", minute: "2-digit" });
  for (const node of root.querySelectorAll("time[datetime]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) node.textContent = format.format(when);
  }
}

/** Swap in the board from /t/{id}/board (after a write, and every few seconds). */
async function refreshBoard({ force = false } = {}) {
  let response;
  const scrolled = window.scrollY;
  try {
    // The same page of the history as this page shows (`?before=` on an older page).
    const url = api.board + location.search;
    response = await fetch(url, { headers: { Accept: "text/html" }, cache: "no-store" });
  } catch {
    return false;
  }
  if (!response.ok) return false;
  const html = await response.text();
  if (html === lastBoard && !force) return true;
  const focused = document.activeElement;
  const inBoard = focused?.closest?.("[data-region]");
  if (inBoard && !force) return true; // do not pull the board from under a keyboard user
  lastBoard = html;
  const fresh = new DOMParser().parseFromString(html, "text/html");
  for (const region of fresh.querySelectorAll("[data-region]")) {
    const current = document.getElementById(region.id);
    if (current) current.replaceWith(document.importNode(region, true));
  }
  const data = fresh.getElementById("board-state");
  if (data) state = JSON.parse(data.textContent);
  nameSeats();
  applyAccess();
  localTimes();
  syncForm();
  window.scrollTo(window.scrollX, scrolled); // the reader stays where they were
  return true;
}

/** A live event arrived: refresh the board once for a burst of them. */
function scheduleRefresh() {
  window.clearTimeout(refreshTimer);
  refreshTimer = window.setTimeout(() => refreshBoard({ force: true }), 20);
}

function setStatus(text, kind = "") {
  recordStatus.textContent = text;
  recordStatus.dataset.kind = kind;
}

/** A full hand's preview says who pays whom by seat; at a table, seats have names. */
function nameSeats() {
  for (const player of state.players) pageData.messages[`seat.${player.seat}`] = player.name;
}

// --- The record form ------------------------------------------------------------------------

function checked(name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
}

function setChecked(name, value) {
  for (const input of form.querySelectorAll(`input[name="${name}"]`)) {
    input.checked = input.value === value;
  }
}

function syncForm() {
  const kind = checked("kind") ?? "win";
  for (const panel of form.querySelectorAll("[data-kind-panel]")) {
    panel.hidden = panel.dataset.kindPanel !== kind;
  }
  const many = several();
  form.querySelector('[data-field="winner"]').hidden = many;
  const winnersField = form.querySelector('[data-field="winners"]');
  if (winnersField) winnersField.hidden = !many;
  form.querySelector('[data-field="entry"]').hidden = many;
  const entry = many ? "several" : (checked("entry") ?? "tai");
  for (const panel of form.querySelectorAll("[data-entry-panel]")) {
    panel.hidden = panel.dataset.entryPanel !== entry;
  }
  const winners = many ? chosenWinners() : [checked("winner")].filter((value) => value !== null);
  for (const part of form.querySelectorAll("[data-winner-tai]")) {
    part.hidden = !winners.includes(part.dataset.winnerTai);
  }
  for (const input of form.querySelectorAll('input[name="from"]')) {
    input.disabled = winners.includes(input.value) || (many && input.value === "self");
    if (input.disabled && input.checked) input.checked = false;
  }
  const amending = mode === "amend";
  const template = amending ? recordTitle.dataset.amendText : recordTitle.dataset.recordText;
  recordTitle.textContent = template.replace("{n}", String(amending ? amendSeq : state.next_hand));
  submitButton.textContent = amending
    ? submitButton.dataset.amendLabel
    : submitButton.dataset.recordLabel;
  amendFields.hidden = !amending;
  amendCancel.hidden = !amending;
  finishedNotice.hidden = amending || !state.finished;
  submitButton.disabled = busy || (!amending && state.finished);
}

function playerName(index) {
  return table.players[Number(index)];
}

function seatOf(index) {
  return state.players[Number(index)].seat;
}

/** Several winners on one discard: only where the profile allows it (`tw`). */
function several() {
  return Boolean(severalToggle?.checked);
}

function chosenWinners() {
  return [...form.querySelectorAll('input[name="winners"]:checked')].map((input) => input.value);
}

/** The tai from quick buttons named `name`, or the number field beside them. */
function chosenTai(name = "tai") {
  const other = form.querySelector(`input[data-other-for="${name}"]`)?.value.trim();
  if (other) return Number(other);
  const value = checked(name);
  return value === null ? null : Number(value);
}

function validTai(tai) {
  return tai !== null && Number.isInteger(tai) && tai >= 0;
}

/** One discard, several winners (`tw`), each with their agreed tai. */
function buildSeveral() {
  const winners = chosenWinners();
  if (!winners.length) return { error: t("table.need_winners"), field: "winners" };
  const from = checked("from");
  if (from === null || from === "self") return { error: t("table.need_discarder"), field: "from" };
  const listed = [];
  for (const winner of winners) {
    const tai = chosenTai(`tai_${winner}`);
    if (!validTai(tai)) {
      return { error: t("table.need_tai_for", { name: playerName(winner) }), field: `tai_${winner}` };
    }
    listed.push({ name: playerName(winner), tai });
  }
  return { entry: { kind: "win", from: playerName(from), winners: listed } };
}

/** The whole hand's count of table discards: null when blank, NaN when not a whole number. */
function chosenDiscards() {
  const text = tableDiscards?.value.trim() ?? "";
  if (!text) return null;
  const count = Number(text);
  return Number.isInteger(count) && count >= 0 ? count : Number.NaN;
}

/** The entry the form describes, or {error} naming what is missing. */
function buildEntry() {
  const kind = checked("kind") ?? "win";
  if (kind === "draw") return { entry: { kind: "draw" } };
  if (kind === "payout") {
    const player = checked("payout_player");
    if (player === null) return { error: t("table.need_player"), field: "payout_player" };
    return {
      entry: {
        kind: "payout",
        player: playerName(player),
        event: form.elements.payout_event.value,
        at_start: form.querySelector('input[name="at_start"]').checked,
      },
    };
  }
  if (several()) return buildSeveral();
  const winner = checked("winner");
  if (winner === null) return { error: t("table.need_winner"), field: "winner" };
  const from = checked("from");
  if (from === null) return { error: t("table.need_from"), field: "from" };
  const entry = { kind: "win", winner: playerName(winner) };
  if (from === "self") entry.self_draw = true;
  else entry.from = playerName(from);
  const liable = form.elements.liable?.value;
  if (liable) entry.liable = playerName(liable);
  if ((checked("entry") ?? "tai") === "hand") {
    const hand = editor.toRequest();
    if (!hand.hand) return { error: t("table.need_hand"), field: "entry" };
    const events = [...form.querySelectorAll('input[name="events"]:checked')].map((i) => i.value);
    if (events.length) hand.events = events;
    const discards = chosenDiscards();
    if (Number.isNaN(discards)) return { error: t("table.need_discards"), field: "table_discards" };
    if (discards !== null) hand.table_discards = discards;
    entry.hand = hand;
  } else {
    const tai = chosenTai();
    if (!validTai(tai)) {
      return { error: t("table.need_tai"), field: "tai" };
    }
    entry.tai = tai;
  }
  return { entry };
}

function focusField(name) {
  const target = form.querySelector(`input[name="${name}"]:not(:disabled)`);
  target?.focus();
}

function resetForm() {
  for (const name of ["winner", "from", "tai", "payout_player"]) setChecked(name, "\u0000");
  for (const input of form.querySelectorAll('input[name^="tai_"][type="radio"]')) {
    input.checked = false;
  }
  for (const input of form.querySelectorAll("input[data-other-for]")) input.value = "";
  if (tableDiscards) tableDiscards.value = "";
  if (form.elements.liable) form.elements.liable.value = "";
  for (const box of form.querySelectorAll('input[type="checkbox"]')) box.checked = false;
  amendReason.value = "";
  editor.clear();
  renderMessage(preview, t("table.preview_hint"));
}

function leaveAmend() {
  mode = "record";
  amendSeq = 0;
  recordKey = newKey();
  setChecked("kind", "win");
  resetForm();
  syncForm();
}

async function submitEntry(event) {
  event.preventDefault();
  if (busy) return;
  const built = buildEntry();
  if (built.error) {
    setStatus(built.error, "bad");
    focusField(built.field);
    return;
  }
  const body = { ...built.entry, key: recordKey };
  let url = api.hands;
  if (mode === "amend") {
    const reason = amendReason.value.trim();
    if (!reason) {
      setStatus(t("table.need_reason"), "bad");
      amendReason.focus();
      return;
    }
    body.reason = reason;
    body.by = form.elements.by.value;
    body.expect = amendVersion;
    url = `${api.events}/${amendSeq}/amend`;
  } else {
    // Hands waiting offline come first: this one is the hand after them.
    body.expect_hand = state.next_hand + waitingHands();
  }
  hideConfirmation();
  if (mode === "record" && !navigator.onLine) {
    keepOffline(url, body);
    return;
  }
  busy = true;
  syncForm();
  setStatus(t("table.saving"));
  try {
    const { status, data } = await send(url, body);
    if (status === 200 || status === 201) {
      const seq = data.event.seq;
      const amending = mode === "amend";
      if (amending) {
        setStatus(t(data.duplicate ? "table.duplicate" : "table.amended", { n: seq }), "good");
        leaveAmend();
      } else {
        setStatus("");
        showConfirmation(data);
        // Back to a blank win: a second tap on Record cannot repeat a draw or a payout.
        recordKey = newKey();
        setChecked("kind", "win");
        resetForm();
      }
      await refreshBoard({ force: true });
    } else {
      if (status === 401 || status === 403) refused(status);
      setStatus(t("table.not_recorded", { reason: data.error ?? status }), "bad");
      if (status === 409) await refreshBoard({ force: true });
    }
  } catch {
    if (mode === "record") {
      // No answer: kept with its key, so sending it again can never record it twice.
      keepOffline(url, body);
    } else {
      setStatus(t("result.network"), "bad");
    }
  } finally {
    busy = false;
    syncForm();
  }
}

// --- After Record: the new totals and Undo --------------------------------------------------

function showConfirmation(data) {
  const seq = data.event.seq;
  document.getElementById("confirmation-text").textContent = t(
    data.duplicate ? "table.duplicate" : "table.recorded_totals",
    { n: seq },
  );
  const totals = document.getElementById("confirmation-totals");
  totals.replaceChildren(
    ...data.table.players.map((player) => {
      const total = Number(player.total);
      const item = el("li", total > 0 ? "plus" : total < 0 ? "minus" : "");
      item.append(el("span", "name", `${player.name} `), el("strong", "", total > 0 ? `+${player.total}` : String(player.total)));
      return item;
    }),
  );
  undoable = data.duplicate ? null : { seq };
  undoButton.hidden = !undoable;
  undoButton.setAttribute("aria-label", t("table.undo_for", { n: seq }));
  confirmation.hidden = false;
  window.clearTimeout(undoTimer);
  undoTimer = window.setTimeout(() => {
    undoable = null;
    undoButton.hidden = true;
  }, UNDO_MS);
}

function hideConfirmation() {
  window.clearTimeout(undoTimer);
  undoable = null;
  confirmation.hidden = true;
}

async function undo() {
  if (!undoable || busy) return;
  const { seq } = undoable;
  busy = true;
  undoButton.disabled = true;
  try {
    // `expect: 0`: the event as this device recorded it; a correction made meanwhile on
    // another device wins, and the undo is refused rather than silently undoing that.
    const body = { reason: UNDO_REASON, key: newKey(), expect: 0 };
    const { status, data } = await send(`${api.events}/${seq}/void`, body);
    hideConfirmation();
    if (status === 200 || status === 201) {
      setStatus(t("table.undone", { n: seq }), "good");
    } else if (status === 409) {
      setStatus(t("table.undo_refused", { n: seq }), "bad");
    } else {
      if (status === 401 || status === 403) refused(status);
      setStatus(t("table.not_recorded", { reason: data.error ?? status }), "bad");
    }
    await refreshBoard({ force: true });
  } catch {
    setStatus(t("result.network"), "bad");
  } finally {
    busy = false;
    undoButton.disabled = false;
    syncForm();
  }
}

// --- Who pays whom, before Record -------------------------------------------------------------

function schedulePays() {
  window.clearTimeout(paysTimer);
  paysTimer = window.setTimeout(updatePays, 150);
}

async function updatePays() {
  const built = mode === "record" && token && navigator.onLine ? buildEntry() : { error: true };
  if (built.error) {
    paysPreview.hidden = true;
    return;
  }
  paysController?.abort();
  paysController = new AbortController();
  paysPreview.hidden = false;
  paysBody.replaceChildren(el("p", "hint", t("table.pays_waiting")));
  try {
    const body = { ...built.entry, expect_hand: state.next_hand + waitingHands() };
    const response = await fetch(api.preview, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        Authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
      signal: paysController.signal,
    });
    const data = await response.json();
    if (!response.ok || !data.recordable) {
      paysBody.replaceChildren(el("p", "bad", data.error ?? String(response.status)));
      return;
    }
    if (!data.transfers.length) {
      paysBody.replaceChildren(el("p", "hint", t("table.pays_none")));
      return;
    }
    const list = el("ul", "transfers");
    for (const transfer of data.transfers) {
      const item = el("li");
      item.append(
        el("span", "", t("result.pays", { payer: transfer.from, payee: transfer.to })),
        el("span", "amount", transfer.amount_text),
      );
      list.append(item);
    }
    paysBody.replaceChildren(list);
  } catch (error) {
    if (error.name !== "AbortError") paysPreview.hidden = true;
  }
}

// --- Offline: the outbox ----------------------------------------------------------------------

/** Wins and drawn hands waiting to be sent: each takes a hand number before this one. */
function waitingHands() {
  return outbox
    .pending(table.id)
    .filter((item) => item.state === "waiting" && item.body.kind !== "payout").length;
}

function describe(body) {
  if (body.kind === "draw") return t("table.ev.draw");
  if (body.kind === "payout") {
    return t("table.ev.payout", { player: body.player, event: t(`payout.${body.event}`) });
  }
  const winners = body.winners ?? [{ name: body.winner, tai: body.tai }];
  return winners
    .map((winner) => {
      if (winner.tai === undefined) return `${winner.name}: ${t("table.entry_hand")}`;
      return body.self_draw
        ? t("table.ev.win_self", { winner: winner.name, tai: winner.tai })
        : t("table.ev.win_from", { winner: winner.name, tai: winner.tai, discarder: body.from });
    })
    .join(t("table.ev.and"));
}

function keepOffline(url, body) {
  const kept = outbox.keep({ key: body.key, table: table.id, url, body, text: describe(body) });
  if (!kept) {
    setStatus(t("result.network"), "bad");
    return;
  }
  setStatus(t("table.kept_offline"), "good");
  recordKey = newKey();
  setChecked("kind", "win");
  resetForm();
  renderOutbox();
  syncForm();
}

function renderOutbox() {
  const items = outbox.pending(table.id);
  outboxBox.hidden = !items.length || !token;
  outboxList.replaceChildren(
    ...items.map((item) => {
      const row = el("li");
      row.dataset.key = item.key;
      row.dataset.state = item.state;
      row.append(el("span", "outbox-text", item.text));
      const stateText =
        item.state === "refused" ? t("table.outbox_refused", { reason: item.error }) : t("table.outbox");
      row.append(el("span", "outbox-state", stateText));
      if (item.state === "refused") {
        const actions = el("div", "outbox-actions");
        const fix = el("button", "small-button", t("table.outbox_fix"));
        fix.type = "button";
        fix.dataset.fix = item.key;
        const drop = el("button", "small-button danger", t("table.outbox_discard"));
        drop.type = "button";
        drop.dataset.discard = item.key;
        actions.append(fix, drop);
        row.append(actions);
      }
      return row;
    }),
  );
}

/** A refused entry back in the form, to be checked and recorded again (with a new key). */
function fixEntry(key) {
  const item = outbox.pending(table.id).find((entry) => entry.key === key);
  if (!item) return;
  outbox.discard(key);
  if (mode === "amend") leaveAmend();
  const body = item.body;
  recordKey = newKey();
  resetForm();
  setChecked("kind", body.kind);
  const index = (name) => String(table.players.indexOf(name));
  if (body.kind === "win" && body.winner !== undefined) {
    setChecked("winner", index(body.winner));
    setChecked("from", body.self_draw ? "self" : index(body.from));
    if (body.tai !== undefined) setTai("tai", body.tai);
  }
  if (body.kind === "payout") setChecked("payout_player", index(body.player));
  renderOutbox();
  syncForm();
  schedulePays();
  recordCard.scrollIntoView({ block: "start" });
}

async function sendOutbox() {
  if (!token || !outbox.pending(table.id).length) return;
  const { sent, refused: refusedItems } = await outbox.flush(table.id, send);
  renderOutbox();
  if (sent.length) {
    setStatus(t("table.outbox_sent", { n: sent.map((item) => item.event.seq).join(", #") }), "good");
    await refreshBoard({ force: true });
  } else if (refusedItems.length) {
    setStatus(t("table.outbox_refused", { reason: refusedItems[0].error }), "bad");
  }
}

// --- Sharing --------------------------------------------------------------------------------

function drawWriteQr() {
  const box = document.getElementById("write-qr");
  if (!token) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(qrSvg(linkFor(true), box.dataset.label));
}

async function shareTable(which) {
  const withToken = which === "write";
  const input = document.getElementById(withToken ? "write-link" : "read-link");
  const verdict = await shareLink(
    {
      url: linkFor(withToken),
      title: document.title,
      text: t(withToken ? "table.share_write_text" : "table.share_read_text"),
    },
    input,
  );
  const status = document.getElementById("copy-status");
  if (verdict === "copied") status.textContent = t("table.copied");
  else if (verdict === "manual") status.textContent = t("table.copy_manual");
}

/** Switching between one winner and several keeps who was chosen, and their tai. */
function carryWinners() {
  if (several()) {
    const winner = checked("winner");
    if (winner === null) return;
    const box = form.querySelector(`input[name="winners"][value="${winner}"]`);
    if (box) box.checked = true;
    const tai = chosenTai();
    if (validTai(tai) && chosenTai(`tai_${winner}`) === null) setTai(`tai_${winner}`, tai);
    return;
  }
  const [first] = chosenWinners();
  if (first === undefined || checked("winner") !== null) return;
  setChecked("winner", first);
  const tai = chosenTai(`tai_${first}`);
  if (validTai(tai) && chosenTai() === null) setTai("tai", tai);
}

function setTai(name, tai) {
  const button = form.querySelector(`input[name="${name}"][value="${CSS.escape(String(tai))}"]`);
  if (button) button.checked = true;
  else {
    const other = form.querySelector(`input[data-other-for="${name}"]`);
    if (other) other.value = String(tai);
  }
}

// --- A full hand's preview --------------------------------------------------------------------

function schedulePreview() {
  window.clearTimeout(previewTimer);
  previewTimer = window.setTimeout(updatePreview, 150);
}

async function updatePreview() {
  if (several() || (checked("entry") ?? "tai") !== "hand") return;
  const winner = checked("winner");
  const from = checked("from");
  const hand = editor.toRequest();
  if (winner === null || from === null || editor.isEmpty()) {
    renderMessage(preview, t("table.preview_hint"));
    return;
  }
  const needed = 3 * profile.sets + 2;
  if (editor.structural() < needed) {
    renderMessage(preview, t("result.need_more", { n: needed - editor.structural() }));
    return;
  }
  const request = {
    profile: table.profile,
    ...hand,
    win: from === "self" ? "self_draw" : "discard",
    seat: seatOf(winner),
    round: state.round,
    dealer: "E",
    dealer_streak: state.dealer_streak,
    options: table.options,
  };
  if (from !== "self") request.discarder = seatOf(from);
  const liable = form.elements.liable?.value;
  if (liable) request.liable = seatOf(liable);
  const events = [...form.querySelectorAll('input[name="events"]:checked')].map((i) => i.value);
  if (events.length) request.events = events;
  const discards = chosenDiscards();
  if (discards !== null && !Number.isNaN(discards)) request.table_discards = discards;
  previewController?.abort();
  previewController = new AbortController();
  try {
    const response = await fetch(api.score, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(request),
      signal: previewController.signal,
    });
    const data = await response.json();
    if (response.ok) renderResult(preview, data);
    else renderError(preview, data.error ?? t("result.network"));
  } catch (error) {
    if (error.name !== "AbortError") renderMessage(preview, t("result.network"), "bad");
  }
}

// --- Corrections ------------------------------------------------------------------------------

function startAmend(item) {
  const data = item.dataset;
  mode = "amend";
  amendSeq = Number(data.seq);
  amendVersion = Number(data.version ?? 0);
  recordKey = newKey();
  resetForm();
  setChecked("kind", data.prefillKind ?? "win");
  setChecked("entry", "tai");
  if (data.prefillWinner !== undefined) setChecked("winner", data.prefillWinner);
  if (data.prefillWinners && severalToggle) {
    // "player:tai,player:tai": several winners on one discard.
    severalToggle.checked = true;
    for (const part of data.prefillWinners.split(",")) {
      const [winner, tai] = part.split(":");
      const box = form.querySelector(`input[name="winners"][value="${CSS.escape(winner)}"]`);
      if (box) box.checked = true;
      if (tai !== undefined) setTai(`tai_${winner}`, tai);
    }
  }
  if (data.prefillFrom !== undefined) setChecked("from", data.prefillFrom === "" ? "self" : data.prefillFrom);
  if (data.prefillTai !== undefined) {
    const button = form.querySelector(`input[name="tai"][value="${CSS.escape(data.prefillTai)}"]`);
    if (button) button.checked = true;
    else if (taiOther) taiOther.value = data.prefillTai;
  }
  if (data.prefillLiable && form.elements.liable) form.elements.liable.value = data.prefillLiable;
  if (data.prefillPlayer !== undefined) setChecked("payout_player", data.prefillPlayer);
  if (data.prefillEvent && form.elements.payout_event) form.elements.payout_event.value = data.prefillEvent;
  const atStart = form.querySelector('input[name="at_start"]');
  if (atStart) atStart.checked = data.prefillAtStart === "true";
  setStatus("");
  syncForm();
  recordCard.scrollIntoView({ block: "start" });
  recordTitle.focus();
}

function openVoid(item) {
  voidSeq = Number(item.dataset.seq);
  voidVersion = Number(item.dataset.version ?? 0);
  voidKey = newKey();
  const title = document.getElementById("void-title");
  title.textContent = title.dataset.template.replace("{n}", String(voidSeq));
  document.getElementById("void-text").textContent =
    item.querySelector("[data-text]")?.textContent ?? "";
  voidForm.elements.reason.value = "";
  voidStatus.textContent = "";
  dialog.showModal();
  voidForm.elements.reason.focus();
}

async function submitVoid(event) {
  event.preventDefault();
  const reason = voidForm.elements.reason.value.trim();
  if (!reason) {
    voidStatus.textContent = t("table.need_reason");
    voidForm.elements.reason.focus();
    return;
  }
  const confirm = document.getElementById("void-confirm");
  confirm.disabled = true;
  voidStatus.textContent = t("table.saving");
  try {
    const body = { reason, by: voidForm.elements.by.value, key: voidKey, expect: voidVersion };
    const { status, data } = await send(`${api.events}/${voidSeq}/void`, body);
    if (status === 200 || status === 201) {
      dialog.close();
      setStatus("");
      await refreshBoard({ force: true });
      showFlash(t("table.voided", { n: voidSeq }));
      document.getElementById("history-heading")?.focus();
    } else {
      if (status === 401 || status === 403) refused(status);
      voidStatus.textContent = t("table.not_recorded", { reason: data.error ?? status });
      if (status === 409) await refreshBoard({ force: true });
    }
  } catch {
    voidStatus.textContent = t("result.network");
  } finally {
    confirm.disabled = false;
  }
}

// --- Links --------------------------------------------------------------------------------------

async function copyLink(button) {
  const input = document.getElementById(button.dataset.copy);
  const status = document.getElementById("copy-status");
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = t("table.copied");
  } catch {
    // No clipboard outside a secure context (http on the local network): select it instead.
    input.focus();
    input.select();
    status.textContent = t("table.copy_manual");
  }
}

// --- Start ----------------------------------------------------------------------------------------

await takeToken();
nameSeats();
applyAccess();
localTimes();
syncForm();
lastBoard = "";

form.addEventListener("submit", submitEntry);
form.addEventListener("change", (event) => {
  const target = event.target;
  if (target.type === "radio") {
    const other = form.querySelector(`input[data-other-for="${CSS.escape(target.name)}"]`);
    if (other) other.value = "";
  }
  if (target === severalToggle) carryWinners();
  if (!busy) setStatus("");
  syncForm();
  schedulePreview();
  schedulePays();
});
form.addEventListener("input", (event) => {
  const other = event.target.closest?.("input[data-other-for]");
  if (other?.value.trim()) setChecked(other.dataset.otherFor, "\u0000");
  if (event.target === tableDiscards) schedulePreview();
  schedulePays();
});
editor.addEventListener("change", () => {
  schedulePreview();
  schedulePays();
});
undoButton.addEventListener("click", undo);
outboxList.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (button?.dataset.fix) fixEntry(button.dataset.fix);
  if (button?.dataset.discard) {
    outbox.discard(button.dataset.discard);
    renderOutbox();
  }
});
amendCancel.addEventListener("click", () => {
  leaveAmend();
  setStatus("");
});
document.addEventListener("click", (event) => {
  const target = event.target.closest?.("[data-void], [data-amend], [data-copy], [data-share]");
  if (!target) return;
  if (target.dataset.copy) {
    copyLink(target);
    return;
  }
  if (target.dataset.share) {
    shareTable(target.dataset.share);
    return;
  }
  if (!token) return;
  const item = target.closest("[data-seq]");
  if (!item) return;
  if (target.dataset.void) openVoid(item);
  else startAmend(item);
});
voidForm.addEventListener("submit", submitVoid);
document.getElementById("void-cancel").addEventListener("click", () => dialog.close());
document.getElementById("forget").addEventListener("click", () => {
  if (!window.confirm(t("table.forget_confirm"))) return;
  forgetTable(table.id);
  token = "";
  if (mode === "amend") leaveAmend();
  applyAccess();
});
for (const button of document.querySelectorAll("[data-copy]")) button.hidden = false;
applyAccess();

renderOutbox();

// The board follows the table's live stream: no polling. A dropped stream fetches the board,
// then opens again from the last event shown.
const live = new LiveTable(api.stream, {
  after: state.events,
  onEvent: () => scheduleRefresh(),
  onState: (name) => {
    liveStatus.dataset.state = name;
    liveStatus.textContent = liveStatus.dataset[name === "live" ? "live" : name] ?? name;
    if (name === "live") sendOutbox();
  },
  refetch: async () => ((await refreshBoard({ force: true })) ? state.events : null),
});
if (navigator.onLine) live.start();
else {
  live.stop("offline");
  refreshBoard({ force: true }); // the last board this device saw (kept by the service worker)
}
window.addEventListener("online", () => sendOutbox());
document.body.dataset.ready = "true";
