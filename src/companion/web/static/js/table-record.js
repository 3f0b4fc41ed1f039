// A table's page: recording. Record sends the form's entry (or amends the entry being amended);
// offline, or with no answer, a new hand waits in the outbox instead. After Record the page
// shows the new totals, with Undo for a couple of minutes.
import { t } from "./i18n.js";
import { waitingHands } from "./outbox.js";
import { refusalText } from "./result-view.js";
import { refused, send } from "./table-access.js";
import { leaveAmend } from "./table-amend.js";
import { refreshBoard } from "./table-board.js";
import { amendReason, api, entryWhat, form, newKey, session, setStatus, table } from "./table-context.js";
import { focusField } from "./table-fields.js";
import { buildEntry, startOver, syncForm } from "./table-form.js";
import { keepOffline } from "./table-outbox.js";
import { el } from "./tiles.js";

const UNDO_MS = 120_000;
const UNDO_REASON = "undone by the recorder";
const confirmation = document.getElementById("confirmation");
export const undoButton = document.getElementById("undo");
let undoTimer = 0;
let undoable = null; // {seq, what}: the hand this device just recorded

export async function submitEntry(event) {
  event.preventDefault();
  if (session.busy) return;
  const built = buildEntry();
  if (built.error) {
    setStatus(built.error, "bad");
    focusField(built.field);
    return;
  }
  const body = { ...built.entry, key: session.recordKey };
  let url = api.hands;
  if (session.mode === "amend") {
    const reason = amendReason.value.trim();
    if (!reason) {
      setStatus(t("table.need_reason"), "bad");
      amendReason.focus();
      return;
    }
    body.reason = reason;
    body.by = form.elements.by.value;
    body.expect = session.amendVersion;
    url = `${api.events}/${session.amendSeq}/amend`;
  } else {
    // Hands waiting offline come first: this one is the hand after them.
    body.expect_hand = session.state.next_hand + waitingHands(table.id);
  }
  hideConfirmation();
  if (session.mode === "record" && !navigator.onLine) {
    keepOffline(url, body);
    return;
  }
  session.busy = true;
  syncForm();
  setStatus(t("table.saving"));
  try {
    const { status, data } = await send(url, body);
    if (status === 200 || status === 201) {
      const seq = data.event.seq; // the API's key `event` holds the entry
      const amending = session.mode === "amend";
      if (amending) {
        const what = { what: session.amendWhat };
        setStatus(t(data.duplicate ? "table.duplicate_what" : "table.amended_what", what), "good");
        leaveAmend();
      } else {
        setStatus("");
        showConfirmation(data);
        // Back to a blank win: a second tap on Record cannot repeat a draw or a payout.
        startOver();
      }
      await refreshBoard({ force: true });
    } else {
      if (status === 401 || status === 403) refused(status);
      setStatus(t("table.not_recorded", { reason: refusalText(data) || status }), "bad");
      if (status === 409) await refreshBoard({ force: true });
    }
  } catch {
    if (session.mode === "record") {
      // No answer: kept with its key, so sending it again can never record it twice.
      keepOffline(url, body);
    } else {
      setStatus(t("result.network"), "bad");
    }
  } finally {
    session.busy = false;
    syncForm();
  }
}

// --- After Record: the new totals and Undo --------------------------------------------------

function showConfirmation(data) {
  const seq = data.event.seq;
  const what = entryWhat(data.event);
  document.getElementById("confirmation-text").textContent = t(
    data.duplicate ? "table.duplicate_what" : "table.recorded_what",
    { what },
  );
  const totals = document.getElementById("confirmation-totals");
  totals.replaceChildren(
    ...data.table.players.map((player) => {
      if (player.points !== undefined) {
        // A points game: each player's points, as the board shows them.
        const item = el("li", player.points < 0 ? "minus" : "");
        item.append(el("span", "name", `${player.name} `), el("strong", "", player.points.toLocaleString("en-US")));
        return item;
      }
      const total = Number(player.total);
      const item = el("li", total > 0 ? "plus" : total < 0 ? "minus" : "");
      item.append(el("span", "name", `${player.name} `), el("strong", "", total > 0 ? `+${player.total}` : String(player.total)));
      return item;
    }),
  );
  undoable = data.duplicate ? null : { seq, what };
  undoButton.hidden = !undoable;
  undoButton.setAttribute("aria-label", t("table.undo_what", { what }));
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

export async function undo() {
  if (!undoable || session.busy) return;
  const { seq, what } = undoable;
  session.busy = true;
  undoButton.disabled = true;
  try {
    // `expect: 0`: the entry as this device recorded it; a correction made meanwhile on
    // another device wins, and the undo is refused rather than silently undoing that.
    const body = { reason: UNDO_REASON, key: newKey(), expect: 0 };
    const { status, data } = await send(`${api.events}/${seq}/void`, body);
    hideConfirmation();
    if (status === 200 || status === 201) {
      setStatus(t("table.undone_what", { what }), "good");
    } else if (status === 409) {
      setStatus(t("table.undo_refused_what", { what }), "bad");
    } else {
      if (status === 401 || status === 403) refused(status);
      setStatus(t("table.not_recorded", { reason: refusalText(data) || status }), "bad");
    }
    await refreshBoard({ force: true });
  } catch {
    setStatus(t("result.network"), "bad");
  } finally {
    session.busy = false;
    undoButton.disabled = false;
    syncForm();
  }
}
