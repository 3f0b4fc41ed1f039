// A table's page, its entry point: takes the write token, then wires the page's parts to its
// controls and follows the table's live stream. The parts, each in its own module:
//   table-context.js   what they share: the table, its API, the record form, the page's state
//   table-access.js    the write token, the writer's or the spectator's view, writes to the API
//   table-fields.js    the record form's fields one at a time
//   table-several.js   several winners on one discard (`tw`)
//   table-form.js      the record form as a whole: what shows, the entry it describes
//   table-previews.js  who pays whom and a full hand's score, before Record
//   table-record.js    Record, the new totals, Undo
//   table-amend.js     corrections: amend and void
//   table-stop.js      a money table's stop, confirmed first
//   table-outbox.js    hands recorded offline, sent when the connection returns
//   table-board.js     the board, swapped in from the server
//   table-live.js      the live stream that keeps the board current
//   table-share.js     the links, their QR code, Share and Copy
// Without a token the page is the spectator view: the server refuses writes either way.
import { t } from "./i18n.js";
import { applyAccess, takeToken } from "./table-access.js";
import { dialog, leaveAmend, openVoid, startAmend, submitVoid, voidForm } from "./table-amend.js";
import { localTimes, nameSeats } from "./table-board.js";
import { editor, form, session, setStatus, severalToggle, table, tableDiscards } from "./table-context.js";
import { setChecked } from "./table-fields.js";
import { amendCancel, startOver, syncForm } from "./table-form.js";
import { followTable } from "./table-live.js";
import { discardEntry, fixEntry, outboxList, renderOutbox } from "./table-outbox.js";
import { schedulePays, schedulePreview } from "./table-previews.js";
import { submitEntry, undo, undoButton } from "./table-record.js";
import { carryWinners } from "./table-several.js";
import { copyLink, shareTable } from "./table-share.js";
import { forgetTable } from "./table-store.js";

await takeToken();
nameSeats();
applyAccess();
localTimes();
syncForm();

form.addEventListener("submit", submitEntry);
form.addEventListener("change", (event) => {
  const target = event.target;
  if (target.type === "radio") {
    const other = form.querySelector(`input[data-other-for="${CSS.escape(target.name)}"]`);
    if (other) other.value = "";
  }
  if (target === severalToggle) carryWinners();
  if (!session.busy) setStatus("");
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
// Start over: the whole entry afresh (amending: back to recording the next hand); Clear, beside
// it, empties the tiles only.
document.querySelector("#table-hand [data-fresh]").addEventListener("click", () => {
  if (session.mode === "amend") leaveAmend();
  else startOver();
  setStatus("");
  schedulePays();
});
outboxList.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (button?.dataset.fix) fixEntry(button.dataset.fix);
  if (button?.dataset.discard) discardEntry(button.dataset.discard);
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
  if (!session.token) return;
  const item = target.closest("[data-seq]");
  if (!item) return;
  if (target.dataset.void) openVoid(item);
  else startAmend(item);
});
voidForm.addEventListener("submit", submitVoid);
document.getElementById("void-cancel").addEventListener("click", () => dialog.close());
document.getElementById("forget").addEventListener("click", async () => {
  if (!window.confirm(t("table.forget_confirm"))) return;
  // The token this page writes with may not be stored (a link not yet checked): forgotten too.
  const token = session.token;
  session.token = "";
  if (session.mode === "amend") leaveAmend();
  await forgetTable(table.id, [token]);
  applyAccess(); // the spectator's view, once the device holds no trace of the token
});
for (const button of document.querySelectorAll("[data-copy]")) button.hidden = false;
applyAccess();

renderOutbox();
followTable();
document.body.dataset.ready = "true";
