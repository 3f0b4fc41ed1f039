// An event's public leaderboard (/e/{id}): rendered on the server, kept current by the event's
// live stream, with the round timer counting down. The organiser's link is this page's address
// with the event's token in the fragment (as a table's write link is): it opens the organiser's
// page, the fragment going along in the browser only.
import { followEvent, refreshBoard } from "./event-board.js";
import { startTimers } from "./event-timer.js";
import { pageData } from "./i18n.js";

if (new URLSearchParams(location.hash.slice(1)).get("token")) {
  location.replace(`/e/${pageData.event.id}/organiser${location.search}${location.hash}`);
} else {
  startTimers();
  followEvent(refreshBoard);
  document.body.dataset.ready = "true";
}
