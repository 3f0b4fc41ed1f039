// A table's page: the write token. It comes from the write link's fragment (checked with the
// server first) or from this device's localStorage, decides what the page offers (a writer's
// controls or the spectator view), and goes with every write to the API. The server refuses
// writes without it whatever the page shows.
import { t } from "./i18n.js";
import { api, session, table } from "./table-context.js";
import { drawWriteQr, linkFor } from "./table-share.js";
import { rememberTable, tokenFor } from "./table-store.js";

const accessNotice = document.getElementById("access-notice");
const share = document.getElementById("share");
let qrToken = null; // the token the write link's QR code was drawn for

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
/** What "Your tables on this device" lists a table by: its name, players and rules. */
function listing() {
  return { seen: Date.now(), name: table.name ?? "", players: table.players, profile: table.profile };
}

export async function takeToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  const stored = tokenFor(table.id);
  if (fromLink && fromLink !== stored) {
    const verdict = await checkToken(fromLink);
    if (verdict === "refused") {
      history.replaceState(null, "", location.pathname + location.search);
      session.token = stored;
      accessNotice.textContent = t(stored ? "table.link_refused" : "table.token_rejected");
      accessNotice.hidden = false;
      if (session.token) rememberTable(table.id, listing());
      return;
    }
    if (verdict === "unknown") {
      session.token = fromLink; // for this page only; the fragment stays, so a reload checks again
      return;
    }
  }
  if (fromLink) {
    session.token = fromLink;
    const kept = rememberTable(table.id, { token: session.token, ...listing() });
    if (params.get("new") === "1") {
      document.getElementById("created-notice").hidden = false;
      share.open = true;
    }
    // Kept: the address bar shows the read-only link. Not kept (no storage): the fragment
    // stays, so that a reload still finds the token.
    const hash = kept ? "" : `#token=${encodeURIComponent(session.token)}`;
    history.replaceState(null, "", location.pathname + location.search + hash);
    return;
  }
  session.token = stored;
  if (session.token) rememberTable(table.id, listing());
}

export function applyAccess() {
  const writer = Boolean(session.token);
  for (const node of document.querySelectorAll("[data-writer-only]")) node.hidden = !writer;
  for (const node of document.querySelectorAll("[data-reader-only]")) node.hidden = writer;
  document.getElementById("write-link").value = writer ? linkFor(true) : "";
  document.getElementById("read-link").value = linkFor(false);
  document.body.dataset.access = writer ? "write" : "read";
  if (qrToken !== session.token) {
    qrToken = session.token;
    drawWriteQr();
  }
}

export function refused(status) {
  accessNotice.textContent = t(status === 401 ? "table.token_missing" : "table.token_rejected");
  accessNotice.hidden = false;
  // One true state: a token the server refuses does not record here, so the page says so.
  session.token = "";
  applyAccess();
}

/** A JSON request's headers, with this device's token. */
export function tokenHeaders() {
  return {
    "Content-Type": "application/json",
    Accept: "application/json",
    Authorization: `Bearer ${session.token}`,
  };
}

/** A write to the API with this device's token: {status, data}; throws when there is no answer. */
export async function send(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: tokenHeaders(),
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
