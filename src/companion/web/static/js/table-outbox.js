// A table's page: hands recorded offline. Kept in the outbox (outbox.js) with their idempotency
// key, listed under the record form, sent once when the connection returns; an entry the server
// refuses on arrival goes back into the form to be fixed, or is discarded.
import { t } from "./i18n.js";
import * as outbox from "./outbox.js";
import { send } from "./table-access.js";
import { leaveAmend } from "./table-amend.js";
import { refreshBoard } from "./table-board.js";
import { entryWhat, newKey, recordCard, session, setStatus, table } from "./table-context.js";
import { describeEntry } from "./table-describe.js";
import { setChecked, setTai } from "./table-fields.js";
import { resetForm, startOver, syncForm } from "./table-form.js";
import { schedulePays } from "./table-previews.js";
import { el } from "./tiles.js";

const outboxBox = document.getElementById("outbox");
export const outboxList = document.getElementById("outbox-list");

/** What an entry waiting to send says: worded when shown, so in the reader's language. */
function describe(body) {
  return describeEntry(body, Boolean(table.points_game));
}

export function keepOffline(url, body) {
  const kept = outbox.keep({ key: body.key, table: table.id, url, body, text: describe(body) });
  if (!kept) {
    setStatus(t("result.network"), "bad");
    return;
  }
  setStatus(t("table.kept_offline"), "good");
  startOver();
  renderOutbox();
}

export function renderOutbox() {
  const items = outbox.pending(table.id);
  outboxBox.hidden = !items.length || !session.token;
  outboxList.replaceChildren(
    ...items.map((item) => {
      const row = el("li");
      row.dataset.key = item.key;
      row.dataset.state = item.state;
      row.append(el("span", "outbox-text", item.body ? describe(item.body) : item.text));
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
export function fixEntry(key) {
  const item = outbox.pending(table.id).find((entry) => entry.key === key);
  if (!item) return;
  outbox.discard(key);
  if (session.mode === "amend") leaveAmend();
  const body = item.body;
  session.recordKey = newKey();
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

export function discardEntry(key) {
  outbox.discard(key);
  renderOutbox();
}

export async function sendOutbox() {
  if (!session.token || !outbox.pending(table.id).length) return;
  const { sent, refused: refusedItems } = await outbox.flush(table.id, send);
  renderOutbox();
  if (sent.length) {
    const what = sent.map((item) => entryWhat(item.event)).join(t("table.ev.and"));
    setStatus(t("table.outbox_sent_what", { what }), "good");
    await refreshBoard({ force: true });
  } else if (refusedItems.length) {
    setStatus(t("table.outbox_refused", { reason: refusedItems[0].error }), "bad");
  }
}
