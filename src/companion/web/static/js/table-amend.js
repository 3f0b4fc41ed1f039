// A table's page: corrections. Amend puts an entry back in the record form, prefilled from the
// history's line (one winner or several, a drawn hand, a payout), to be recorded again with a
// reason; Void asks for a reason in a dialog. Both name the entry's version as this page saw
// it, so a correction made meanwhile on another device is not silently overwritten.
import { t } from "./i18n.js";
import { refusalText } from "./result-view.js";
import { refused, send } from "./table-access.js";
import { refreshBoard, showFlash } from "./table-board.js";
import {
  api,
  form,
  newKey,
  recordCard,
  recordTitle,
  session,
  setStatus,
  severalToggle,
} from "./table-context.js";
import { setChecked, setTai } from "./table-fields.js";
import { resetForm, startOver, syncForm } from "./table-form.js";

const taiOther = document.getElementById("tai-other");
export const dialog = document.getElementById("void-dialog");
export const voidForm = document.getElementById("void-form");
const voidStatus = document.getElementById("void-status");
let voidSeq = 0;
let voidVersion = 0;
let voidWhat = "";
let voidKey = newKey();

export function startAmend(item) {
  const data = item.dataset;
  session.mode = "amend";
  session.amendSeq = Number(data.seq);
  session.amendVersion = Number(data.version ?? 0);
  session.amendWhat = data.what ?? "";
  session.recordKey = newKey();
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
  if (form.elements.flowers) form.elements.flowers.value = data.prefillFlowers ?? "";
  if (data.prefillLiable && form.elements.liable) form.elements.liable.value = data.prefillLiable;
  if (data.prefillPlayer !== undefined) setChecked("payout_player", data.prefillPlayer);
  // A points game (riichi): the han and fu, who declared riichi, who was tenpai, the chombo.
  if (data.prefillHan !== undefined) setChecked("han", data.prefillHan);
  if (data.prefillFu) setChecked("fu", data.prefillFu);
  if (data.prefillChomboPlayer !== undefined) setChecked("chombo_player", data.prefillChomboPlayer);
  for (const name of ["riichi", "tenpai"]) {
    const key = `prefill${name[0].toUpperCase()}${name.slice(1)}`;
    const chosen = (data[key] ?? "").split(",").filter(Boolean);
    for (const box of form.querySelectorAll(`input[name="${name}"]`)) box.checked = chosen.includes(box.value);
  }
  if (data.prefillEvent && form.elements.payout_event) form.elements.payout_event.value = data.prefillEvent;
  const atStart = form.querySelector('input[name="at_start"]');
  if (atStart) atStart.checked = data.prefillAtStart === "true";
  setStatus("");
  syncForm();
  recordCard.scrollIntoView({ block: "start" });
  recordTitle.focus();
}

/** Back from amending to recording the next hand, with a blank win. */
export function leaveAmend() {
  session.mode = "record";
  session.amendSeq = 0;
  startOver();
}

export function openVoid(item) {
  voidSeq = Number(item.dataset.seq);
  voidVersion = Number(item.dataset.version ?? 0);
  voidWhat = item.dataset.what ?? "";
  voidKey = newKey();
  const title = document.getElementById("void-title");
  title.textContent = title.dataset.template.replace("{what}", voidWhat);
  document.getElementById("void-text").textContent =
    item.querySelector("[data-text]")?.textContent ?? "";
  voidForm.elements.reason.value = "";
  voidStatus.textContent = "";
  dialog.showModal();
  voidForm.elements.reason.focus();
}

export async function submitVoid(event) {
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
      showFlash(t("table.voided_what", { what: voidWhat }));
      document.getElementById("history-heading")?.focus();
    } else {
      if (status === 401 || status === 403) refused(status);
      voidStatus.textContent = t("table.not_recorded", { reason: refusalText(data) || status });
      if (status === 409) await refreshBoard({ force: true });
    }
  } catch {
    voidStatus.textContent = t("result.network");
  } finally {
    confirm.disabled = false;
  }
}
