// A table page of an event: the round timer line, counted down here and kept current by the
// event's live stream (a timer started or restarted by the organiser shows at once).
import { LiveTable } from "./live.js";
import { startTimers } from "./event-timer.js";

const box = document.getElementById("table-timer");

async function refreshTimer() {
  let response;
  try {
    response = await fetch(box.dataset.timerUrl, { headers: { Accept: "text/html" }, cache: "no-store" });
  } catch {
    return null;
  }
  if (!response.ok) return null;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  const line = fresh.body.firstElementChild;
  if (line) box.querySelector("[data-timer-slot]").replaceChildren(document.importNode(line, true));
  startTimers(box);
  return null; // the stream sends the event's version again after a reconnect: one more read
}

if (box) {
  startTimers(box);
  // From version 0: the first message comes at once and brings the line up to date.
  const live = new LiveTable(box.dataset.stream, {
    kind: "event",
    after: 0,
    onEvent: refreshTimer,
    onState: () => {},
    refetch: refreshTimer,
  });
  if (navigator.onLine) live.start();
}
