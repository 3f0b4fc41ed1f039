// A table's page: what the record form's entry would do, before Record: who pays whom (asked of
// the table's preview endpoint, with the token), and a full hand's score (the calculator's
// endpoint, as the table's seats, round and options would score it).
import { t } from "./i18n.js";
import { waitingHands } from "./outbox.js";
import { refusalText, renderError, renderMessage, renderResult } from "./result-view.js";
import { tokenHeaders } from "./table-access.js";
import { api, editor, form, preview, profile, session, table } from "./table-context.js";
import { checked, chosenDiscards, seatOf } from "./table-fields.js";
import { buildEntry, syncForm } from "./table-form.js";
import { several } from "./table-several.js";
import { el } from "./tiles.js";

const paysPreview = document.getElementById("pays-preview");
const paysBody = document.getElementById("pays-preview-body");
let paysTimer = 0;
let paysController = null;
let previewTimer = 0;
let previewController = null;

// --- Who pays whom, before Record -------------------------------------------------------------

export function schedulePays() {
  window.clearTimeout(paysTimer);
  paysTimer = window.setTimeout(updatePays, 150);
}

function setRefused(refused) {
  if (session.refused === refused) return;
  session.refused = refused;
  syncForm();
}

async function updatePays() {
  const built = session.token && navigator.onLine ? buildEntry() : { error: true };
  if (built.error) {
    paysPreview.hidden = true;
    setRefused(false);
    return;
  }
  paysController?.abort();
  paysController = new AbortController();
  paysPreview.hidden = false;
  paysBody.replaceChildren(el("p", "hint", t("table.pays_waiting")));
  try {
    // An amendment is scored where the amended hand stands in the record, as its write is.
    const amending = session.mode === "amend";
    const body = amending
      ? built.entry
      : { ...built.entry, expect_hand: session.state.next_hand + waitingHands(table.id) };
    const url = amending
      ? `${api.preview}?amend=${session.amendSeq}&expect=${session.amendVersion}`
      : api.preview;
    const response = await fetch(url, {
      method: "POST",
      headers: tokenHeaders(),
      body: JSON.stringify(body),
      signal: paysController.signal,
    });
    const data = await response.json();
    if (!response.ok || !data.recordable) {
      // Record waits until the entry can be recorded. A whole hand's refusal is said once, by
      // the hand's own preview above (in the page's language): not again here.
      setRefused(data.recordable === false);
      const wholeHand = !several() && (checked("entry") ?? "tai") === "hand";
      paysPreview.hidden = wholeHand && data.recordable === false && data.status === 422;
      paysBody.replaceChildren(el("p", "bad", refusalText(data) || String(response.status)));
      return;
    }
    setRefused(false);
    if (data.gains) {
      paysBody.replaceChildren(gameMoves(data));
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

/** A points game's hand before Record: "Ann +7,700 from Ben, +1,000 deposit", the sticks put
 * down, or each player's move at a draw. */
function gameMoves(data) {
  const list = el("ul", "game-moves");
  const sep = t("table.ev.list_sep");
  for (const gain of data.gains) {
    // A self-draw names each payer's share: "from Emi, Gus, Hana" would read as each paying all.
    const shares = (gain.paid_by ?? []).map((payer) => t("table.gain_share", { name: payer.name, amount: payer.amount_text }));
    let text =
      shares.length > 1
        ? t("table.gains_shares", { name: gain.name, amount: gain.amount_text, shares: shares.join(sep) })
        : t("table.gains_from", { name: gain.name, amount: gain.amount_text, from: gain.from.join(sep) });
    if (gain.deposit) text += `${sep}${t("table.gains_deposit", { amount: gain.deposit_text })}`;
    list.append(el("li", "gain", text));
  }
  const winners = data.gains.map((gain) => gain.name);
  for (const name of data.sticks.filter((who) => !winners.includes(who))) {
    list.append(el("li", "stick", t("table.stick_down", { name })));
  }
  if (!data.gains.length) {
    if (!data.moves.length) list.append(el("li", "hint", t("table.pays_none")));
    for (const move of data.moves) list.append(el("li", "", `${move.name} ${move.amount_text}`));
  }
  return list;
}

// --- A full hand's preview --------------------------------------------------------------------

export function schedulePreview() {
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
    round: session.state.round,
    dealer: "E",
    dealer_streak: session.state.dealer_streak,
    options: table.options,
  };
  if (!table.names_dealer) {
    // A profile without a dealer (mcr) refuses the fields.
    delete request.dealer;
    delete request.dealer_streak;
  }
  if (table.points_game) {
    // Riichi counts repeats as honba and has East deal: its request takes the table's honba
    // and the sticks on the table (this hand's riichi included), never a dealer or streak.
    delete request.dealer;
    delete request.dealer_streak;
    const declared = form.querySelectorAll('input[name="riichi"]:checked').length;
    request.honba = session.state.honba ?? 0;
    request.riichi_sticks = (session.state.deposits ?? 0) / 1000 + declared;
  }
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
    // Who pays whom is the pays preview's, by the players' names: not again by seat here.
    if (response.ok) renderResult(preview, data, { payments: false });
    else renderError(preview, data.error ? data : t("result.network"));
  } catch (error) {
    if (error.name !== "AbortError") renderMessage(preview, t("result.network"), "bad");
  }
}
