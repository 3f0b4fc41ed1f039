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

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // No service worker (a private window, http on the local network): the app still works
    // online; it just does not open offline.
  });
}
