// An event's pages: the leaderboard's regions, swapped in from /e/{id}/board on each message of
// the event's live stream (live.js, no polling), and the version of the event they show.
import { LiveTable } from "./live.js";
import { pageData } from "./i18n.js";
import { startTimers } from "./event-timer.js";

const state = JSON.parse(document.getElementById("event-state")?.textContent ?? "{}");

export function version() {
  return Number(state.version) || 0;
}

/** A fragment of a page from the server, parsed; null when it could not be had. */
export async function fetchFragment(url, headers = {}) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "text/html", ...headers }, cache: "no-store" });
  } catch {
    return null;
  }
  if (!response.ok) return null;
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

/** Swap in the leaderboard's regions; false when the server could not be reached. */
export async function refreshBoard() {
  const fresh = await fetchFragment(pageData.api.board);
  if (!fresh) return false;
  const scrolled = window.scrollY;
  for (const region of fresh.querySelectorAll("[data-region]")) {
    const current = document.getElementById(region.id);
    if (current) current.replaceWith(document.importNode(region, true));
  }
  window.scrollTo(window.scrollX, scrolled); // the reader stays where they were
  const data = fresh.getElementById("event-state");
  if (data) Object.assign(state, JSON.parse(data.textContent));
  startTimers();
  return true;
}

/** Follow the event's stream: `onChange` runs once for a burst of messages. */
export function followEvent(onChange) {
  const liveStatus = document.getElementById("live-status");
  let timer = 0;
  const live = new LiveTable(pageData.api.stream, {
    kind: "event",
    after: version(),
    onEvent: () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(onChange, 20);
    },
    onState: (name) => {
      liveStatus.dataset.state = name;
      liveStatus.textContent = liveStatus.dataset[name === "live" ? "live" : name] ?? name;
    },
    refetch: async () => ((await onChange()) ? version() : null),
  });
  if (navigator.onLine) live.start();
  else live.stop("offline");
}
