// A table's page: following the table as it changes. The board follows the table's live
// stream (live.js), no polling: each entry refreshes the board, a dropped stream fetches the
// board and then opens again from the last entry shown, and waiting hands are sent whenever
// the stream is live again. Offline, the page shows the last board this device saw.
import { LiveTable } from "./live.js";
import { refreshBoard, scheduleRefresh } from "./table-board.js";
import { api, session } from "./table-context.js";
import { sendOutbox } from "./table-outbox.js";

export function followTable() {
  const liveStatus = document.getElementById("live-status");
  const live = new LiveTable(api.stream, {
    after: session.state.entries,
    onEvent: () => scheduleRefresh(),
    onState: (name) => {
      liveStatus.dataset.state = name;
      liveStatus.textContent = liveStatus.dataset[name === "live" ? "live" : name] ?? name;
      if (name === "live") sendOutbox();
    },
    refetch: async () => ((await refreshBoard({ force: true })) ? session.state.entries : null),
  });
  if (navigator.onLine) live.start();
  else {
    live.stop("offline");
    refreshBoard({ force: true }); // the last board this device saw (kept by the service worker)
  }
  window.addEventListener("online", () => sendOutbox());
}
