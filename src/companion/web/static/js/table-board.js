// A table's page: the board (scoreboard, chart, settle-up, history), rendered on the server and
// swapped in from /t/{id}/board after a write and on each message of the live stream, with the
// board's state (next hand, seats) that the record form reads.
import { pageData } from "./i18n.js";
import { applyAccess } from "./table-access.js";
import { api, session } from "./table-context.js";
import { syncForm } from "./table-form.js";
import { el } from "./tiles.js";

let lastBoard = "";
let refreshTimer = 0;

/** A line under the history's heading, in the page's flow: it covers nothing, and goes with
 * the next refresh of the board. */
export function showFlash(text) {
  const card = document.getElementById("history");
  if (!card) return;
  card.querySelector(".flash")?.remove();
  const line = el("p", "flash", text);
  line.setAttribute("role", "status");
  card.querySelector("h2")?.after(line);
}

/** The history's times in the reader's time zone: the time of day, with the date for a hand
 * not from today (a table kept over several evenings). */
export function localTimes(root = document) {
  const clock = { hour: "2-digit", minute: "2-digit" };
  const time = new Intl.DateTimeFormat(pageData.lang, clock);
  const day = { month: "short", day: "numeric", ...clock };
  const dated = new Intl.DateTimeFormat(pageData.lang, day);
  const datedYear = new Intl.DateTimeFormat(pageData.lang, { year: "numeric", ...day });
  const now = new Date();
  const today = now.toDateString();
  for (const node of root.querySelectorAll("time[datetime]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (Number.isNaN(when.getTime())) continue;
    const older = when.toDateString() !== today;
    const format = !older ? time : when.getFullYear() === now.getFullYear() ? dated : datedYear;
    node.textContent = format.format(when);
    node.dataset.dated = older ? "true" : "false";
  }
}

/** Swap in the board from /t/{id}/board (after a write, and every few seconds). */
export async function refreshBoard({ force = false } = {}) {
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
  if (data) session.state = JSON.parse(data.textContent);
  nameSeats();
  applyAccess();
  localTimes();
  syncForm();
  window.scrollTo(window.scrollX, scrolled); // the reader stays where they were
  return true;
}

/** A live message arrived: refresh the board once for a burst of them. */
export function scheduleRefresh() {
  window.clearTimeout(refreshTimer);
  refreshTimer = window.setTimeout(() => refreshBoard({ force: true }), 20);
}

/** A full hand's preview says who pays whom by seat; at a table, seats have names. */
export function nameSeats() {
  for (const player of session.state.players) pageData.messages[`seat.${player.seat}`] = player.name;
}
