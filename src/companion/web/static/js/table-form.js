// A table's page: the record form as a whole: which of its parts show for the kind of entry
// (win, drawn hand, payout; agreed tai or a full hand; one winner or several), the entry it
// describes for the API, and back to blank after a write.
import { t } from "./i18n.js";
import { renderMessage } from "./result-view.js";
import {
  amendReason,
  editor,
  form,
  newKey,
  preview,
  recordTitle,
  session,
  table,
  tableDiscards,
} from "./table-context.js";
import { checked, chosenDiscards, chosenTai, playerName, setChecked, validTai } from "./table-fields.js";
import { buildSeveral, chosenWinners, several } from "./table-several.js";
import { syncStop } from "./table-stop.js";

const submitButton = document.getElementById("record-submit");
const amendFields = document.getElementById("amend-fields");
export const amendCancel = document.getElementById("amend-cancel");
const finishedNotice = document.getElementById("finished-notice");

export function syncForm() {
  const kind = checked("kind") ?? "win";
  for (const panel of form.querySelectorAll("[data-kind-panel]")) {
    panel.hidden = panel.dataset.kindPanel !== kind;
  }
  const riichi = form.querySelector("[data-riichi-toggles]");
  if (riichi) {
    // A points game: riichi sticks go down in a win or a draw, never in a chombo's void hand;
    // the fu is asked only below 5 han.
    riichi.hidden = kind === "chombo";
    const han = checked("han");
    const fuField = form.querySelector('[data-field="fu"]');
    if (fuField) fuField.hidden = han === "Y" || (han !== null && Number(han) >= 5);
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
  const amending = session.mode === "amend";
  const template = amending ? recordTitle.dataset.amendText : recordTitle.dataset.recordText;
  recordTitle.textContent = amending
    ? template.replace("{what}", session.amendWhat)
    : template.replace("{n}", String(session.state.next_hand));
  submitButton.textContent = amending
    ? submitButton.dataset.amendLabel
    : submitButton.dataset.recordLabel;
  amendFields.hidden = !amending;
  amendCancel.hidden = !amending;
  finishedNotice.hidden = amending || !session.state.finished;
  finishedNotice.textContent = session.state.stopped
    ? finishedNotice.dataset.stoppedText
    : finishedNotice.dataset.finishedText;
  syncStop();
  submitButton.disabled =
    session.busy || (!amending && session.state.finished) || (!amending && session.refused);
}

/** The entry the form describes, or {error} naming what is missing. */
function chosenPlayers(name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((box) => playerName(box.value));
}

export function buildEntry() {
  const kind = checked("kind") ?? "win";
  if (table.points_game) return buildGameEntry(kind);
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
    // Flowers, where the table plays them: each one more fan, never toward the minimum.
    const flowers = form.elements.flowers?.value.trim();
    if (flowers) {
      const count = Number(flowers);
      if (!Number.isInteger(count) || count < 0) return { error: t("table.need_flowers"), field: "flowers" };
      if (count) entry.flowers = count;
    }
  }
  return { entry };
}

/** A points game's entry (riichi): a win at a han and fu (or yakuman, or the whole hand), an
 * exhaustive draw with the tenpai players, a chombo; the riichi declarations with either. */
function buildGameEntry(kind) {
  const riichi = chosenPlayers("riichi");
  if (kind === "chombo") {
    const player = checked("chombo_player");
    if (player === null) return { error: t("table.need_player"), field: "chombo_player" };
    return { entry: { kind: "chombo", player: playerName(player) } };
  }
  if (kind === "draw") return { entry: { kind: "draw", tenpai: chosenPlayers("tenpai"), riichi } };
  const winner = checked("winner");
  if (winner === null) return { error: t("table.need_winner"), field: "winner" };
  const from = checked("from");
  if (from === null) return { error: t("table.need_from"), field: "from" };
  const entry = { kind: "win", winner: playerName(winner), riichi };
  if (from === "self") entry.self_draw = true;
  else entry.from = playerName(from);
  const liable = form.elements.liable?.value;
  if (liable) entry.liable = playerName(liable);
  if ((checked("entry") ?? "tai") === "hand") {
    const hand = editor.toRequest();
    if (!hand.hand) return { error: t("table.need_hand"), field: "entry" };
    const events = [...form.querySelectorAll('input[name="events"]:checked')].map((i) => i.value);
    if (events.length) hand.events = events;
    entry.hand = hand;
    return { entry };
  }
  const han = checked("han");
  if (han === null) return { error: t("table.need_han"), field: "han" };
  if (han === "Y") {
    entry.yakuman = 1;
    return { entry };
  }
  entry.han = Number(han);
  const fu = checked("fu");
  if (entry.han < 5) {
    if (fu === null) return { error: t("table.need_fu"), field: "fu" };
    entry.fu = Number(fu);
  }
  return { entry };
}

/** A blank win with a new idempotency key: the next hand, entered from nothing. */
export function startOver() {
  session.recordKey = newKey();
  setChecked("kind", "win");
  resetForm();
  syncForm();
}

export function resetForm() {
  for (const name of ["winner", "from", "tai", "payout_player", "han", "fu", "chombo_player"]) {
    setChecked(name, "\u0000");
  }
  for (const input of form.querySelectorAll('input[name^="tai_"][type="radio"]')) {
    input.checked = false;
  }
  for (const input of form.querySelectorAll("input[data-other-for]")) input.value = "";
  if (form.elements.flowers) form.elements.flowers.value = "";
  if (tableDiscards) tableDiscards.value = "";
  if (form.elements.liable) form.elements.liable.value = "";
  for (const box of form.querySelectorAll('input[type="checkbox"]')) box.checked = false;
  amendReason.value = "";
  editor.clear();
  renderMessage(preview, t("table.preview_hint"));
}
