// A table page of an event: the round timer line, counted down here and kept current by the
// event's live stream (a timer started or restarted by the organiser shows at once). Only the
// organiser's actions move a timer: a message that says the organiser's last action is the one
// this line already follows (a hand at some table) fetches nothing, until the time is up.
import { fetchFragment } from "./event-board.js";
import { startTimers } from "./event-timer.js";
import { LiveTable } from "./live.js";

const box = document.getElementById("table-timer");

async function refreshTimer() {
  const fresh = await fetchFragment(box.dataset.timerUrl);
  const line = fresh?.body.firstElementChild;
  if (line) box.querySelector("[data-timer-slot]").replaceChildren(document.importNode(line, true));
  startTimers(box);
  return null; // the stream sends the event's version again after a reconnect: one more read
}

if (box) {
  startTimers(box);
  let actions = null; // the organiser's last action the line follows (not known yet)
  // From version 0: the first message comes at once and brings the line up to date.
  const live = new LiveTable(box.dataset.stream, {
    kind: "event",
    after: 0,
    onEvent: (data) => {
      // Once time is up, a hand at this table changes what it still plays ("last hand").
      const up = box.querySelector("[data-timer].is-up");
      if (data.actions === actions && !up) return;
      actions = data.actions;
      refreshTimer();
    },
    onState: () => {},
    refetch: refreshTimer,
  });
  if (navigator.onLine) live.start();
}
