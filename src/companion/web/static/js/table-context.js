// A table's page, what every part of its script shares: the table and its API's URLs (from the
// page's data block), the record form with the fields several parts fill or read, the hand
// editor, and the page's own state (`session`): the write token, the board as last seen,
// recording or amending, and whether a write is under way.
import { HandEditor } from "./hand-editor.js";
import { pageData, setUnit, t } from "./i18n.js";

export const table = pageData.table;
export const api = pageData.api;
export const profile = pageData.profiles.find((item) => item.id === table.profile) ?? pageData.profiles[0];
setUnit(profile.unit);

export const form = document.getElementById("record-form");
export const recordCard = document.getElementById("record");
export const recordTitle = recordCard.querySelector("[data-record-title]");
export const amendReason = document.getElementById("amend-reason");
export const severalToggle = document.getElementById("several"); // tw only: several winners, one discard
export const tableDiscards = document.getElementById("table-discards"); // tw only
export const preview = document.getElementById("hand-preview");
const recordStatus = document.getElementById("record-status");
export const editor = new HandEditor(document.getElementById("table-hand"));
editor.setProfile({ sets: profile.sets, animals: profile.animals });

/** What the page's parts read and change as the page goes. */
export const session = {
  token: "",
  state: JSON.parse(document.getElementById("board-state").textContent),
  mode: "record", // or "amend"
  amendSeq: 0,
  amendVersion: 0, // the version of the entry being amended, as this page saw it
  amendWhat: "", // what players call it: "hand 17"
  recordKey: newKey(),
  busy: false,
  refused: false, // the table's preview refuses the entry as it stands: Record waits
};

/** A fresh idempotency key: one per entry, reused when the same entry is sent again. */
export function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `web-${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export function setStatus(text, kind = "") {
  recordStatus.textContent = text;
  recordStatus.dataset.kind = kind;
}

/** What players call an entry: "hand 17", "the payout in hand 17" (not its entry number,
 * which the history's audit lines show). */
export function entryWhat(entry) {
  if (!entry?.hand) return t("table.what.entry");
  return t(entry.kind === "payout" ? "table.what.payout" : "table.what.hand", { n: entry.hand });
}
