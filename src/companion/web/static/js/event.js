// An event's public leaderboard (/e/{id}): rendered on the server, kept current by the event's
// live stream, with the round timer counting down.
import { followEvent, refreshBoard } from "./event-board.js";
import { startTimers } from "./event-timer.js";

startTimers();
followEvent(refreshBoard);
document.body.dataset.ready = "true";
