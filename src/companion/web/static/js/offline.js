// On every page: install the service worker (the app then opens with no connection), and say
// plainly when the page is offline, showing what it last knew.
const banner = document.getElementById("offline-banner");

function show() {
  const offline = !navigator.onLine;
  if (banner) banner.hidden = !offline;
  document.body.dataset.online = offline ? "false" : "true";
}

window.addEventListener("online", show);
window.addEventListener("offline", show);
show();

/** Ask the service worker to keep this page (without its fragment): on a device's first
 * visit the page came before the worker, so the worker has not seen it. `data-kept` on the
 * body says when it is kept. */
async function keepThisPage() {
  const registration = await navigator.serviceWorker.ready;
  if (!registration.active || !navigator.onLine) return;
  const channel = new MessageChannel();
  const answer = new Promise((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data === true);
  });
  const url = location.pathname + location.search;
  registration.active.postMessage({ type: "keep", url }, [channel.port2]);
  if (await answer) document.body.dataset.kept = "true";
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => {
      // A page the worker served online is kept already (network first).
      if (navigator.serviceWorker.controller) document.body.dataset.kept = "true";
      else return keepThisPage();
    })
    .catch(() => {
      // No service worker (a private window, http on the local network): the app still works
      // online; it just does not open offline.
    });
}
