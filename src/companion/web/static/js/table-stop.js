// A table's page: stopping a money table (sg, sg-table, tw, hk). The writer's "Stop the table"
// asks to confirm, then records a stop after the last hand: the session ends there, no hand is
// recorded after it, and voiding the stop in the history opens the table again.
import { refusalText } from "./result-view.js";
import { refused, send } from "./table-access.js";
import { refreshBoard } from "./table-board.js";
import { api, newKey, session, setStatus } from "./table-context.js";
import { t } from "./i18n.js";

const control = document.getElementById("stop-table");
const dialog = document.getElementById("stop-dialog");

/** Shown to the writer of a money table that has played a hand and is not finished. */
export function syncStop() {
  if (!control) return;
  control.hidden =
    !session.token || session.mode === "amend" || session.state.finished || session.state.hands < 1;
}

function openStop() {
  const text = document.getElementById("stop-text");
  text.textContent = text.dataset.template.replace("{n}", String(session.state.hands));
  document.getElementById("stop-status").textContent = "";
  dialog.showModal();
}

async function confirmStop(event) {
  event.preventDefault();
  if (session.busy) return;
  session.busy = true;
  const status = document.getElementById("stop-status");
  try {
    // `expect_hand`: the stop comes after the hands this page showed; a hand recorded
    // meanwhile on another phone refuses it (409) rather than stopping after that one unseen.
    const body = { kind: "stop", key: newKey(), expect_hand: session.state.next_hand };
    const { status: code, data } = await send(api.hands, body);
    if (code === 200 || code === 201) {
      dialog.close();
      setStatus(t("table.ev.table_stopped"), "good");
    } else {
      if (code === 401 || code === 403) refused(code);
      status.textContent = t("table.not_recorded", { reason: refusalText(data) || code });
    }
    await refreshBoard({ force: true });
  } catch {
    status.textContent = t("result.network");
  } finally {
    session.busy = false;
    syncStop();
  }
}

if (control) {
  document.getElementById("stop-open").addEventListener("click", openStop);
  document.getElementById("stop-cancel").addEventListener("click", () => dialog.close());
  document.getElementById("stop-form").addEventListener("submit", confirmStop);
}
