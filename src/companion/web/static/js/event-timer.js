// A round's timer ("Round 2 · 41:12 left", then "Time's up"): counted down once a second from
// the milliseconds the server said were left when it wrote the line (data-left-ms), measured
// on this page's own monotonic clock, so a phone whose clock is wrong still shows the right time.
// A paused timer (data-paused) stands still: the server's text is shown as it is.
const timers = new Map(); // element -> the moment (performance.now()) its time is up
let ticking = 0;

function clock(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = seconds % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${pad(minutes)}:${pad(secs)}` : `${minutes}:${pad(secs)}`;
}

function tick() {
  const now = performance.now();
  for (const [element, ends] of timers) {
    if (!element.isConnected) {
      timers.delete(element);
      continue;
    }
    const left = Math.max(0, ends - now);
    const text = element.querySelector("[data-timer-text]");
    const shown = left > 0
      ? element.dataset.leftText.replace("{time}", clock(Math.ceil(left / 1000)))
      : element.dataset.upText;
    if (text.textContent !== shown) text.textContent = shown;
    element.classList.toggle("is-up", left <= 0);
  }
  if (!timers.size) {
    window.clearInterval(ticking);
    ticking = 0;
  }
}

/** Count down every timer line under `root` (again after a region was swapped in). */
export function startTimers(root = document) {
  const now = performance.now();
  for (const element of root.querySelectorAll("[data-timer]")) {
    timers.delete(element);
    if ("paused" in element.dataset) continue; // stood still: its text is the server's
    const left = Number(element.dataset.leftMs);
    if (!Number.isFinite(left)) continue;
    timers.set(element, now + left);
  }
  tick();
  if (timers.size && !ticking) ticking = window.setInterval(tick, 1000);
}
