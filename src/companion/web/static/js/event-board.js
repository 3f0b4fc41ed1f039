// An event's pages: the leaderboard's regions, swapped in from /e/{id}/board on each message of
// the event's live stream (live.js, no polling), and the version of the event they show.
import { LiveTable } from "./live.js";
import { pageData } from "./i18n.js";
import { startTimers } from "./event-timer.js";

const state = JSON.parse(document.getElementById("event-state")?.textContent ?? "{}");

export function version() {
  return Number(state.version) || 0;
}

/** Swap in the leaderboard's regions; false when the server could not be reached. */
export async function refreshBoard() {
  let response;
  try {
    response = await fetch(pageData.api.board, { headers: { Accept: "text/html" }, cache: "no-store" });
  } catch {
    return false;
  }
  if (!response.ok) return false;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
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
