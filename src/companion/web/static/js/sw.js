// Companion's service worker (served as /sw.js, so that it covers every page). It keeps the
// app's own files and the pages last seen, so that the calculator and a table's page open with
// no connection: network first, the last copy when the network fails. The JSON API and the live
// stream are never cached: a table's writes wait in the page's outbox instead (table.js). Nor is
// anything that carries a token: a request sent with `Authorization` (the organiser's part of an
// event's page holds every table's write link) and a response the server marks `private` are
// never kept, since the cache answers by URL alone and would give them to a request without it.
// (`no-store` alone does not stop it: a table's board says it so that the browser's own cache
// never serves a stale board, yet this worker keeps it for the table's page offline.)
// A page opened before this worker controlled it (a device's first visit) asks to be kept
// (offline.js), so every table page a device has opened reopens offline, not just the second
// visit. A new release carries the table pages over to its own cache. The cache's keys never
// hold the URL's fragment, where a write link carries its token (and forgetting a write link
// sweeps the caches for its token: table-store.js).
const VERSION = "__VERSION__";
const CACHE = `companion-${VERSION}`;
const SHELL = __SHELL__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

/** The URL a page is kept under: without its fragment (`#token=...` stays on the device's
 * address bar only). */
function keyOf(url) {
  const bare = new URL(url, self.location.origin);
  bare.hash = "";
  return bare.href;
}

function isTablePage(url) {
  return /^\/t\/[^/]+$/.test(new URL(url).pathname);
}

/** Fetch and keep one page; false when the network or the server did not give it. */
async function keep(cache, url) {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!keepable(response)) return false;
    await cache.put(url, response);
    return true;
  } catch {
    return false;
  }
}

/** A table page and its board fragment (the board the page swaps in when it reopens). */
async function keepTable(cache, url) {
  const page = new URL(keyOf(url));
  const board = new URL(page.href);
  board.pathname = `${page.pathname}/board`;
  const [kept] = await Promise.all([keep(cache, page.href), keep(cache, board.href)]);
  return kept;
}

/** The table pages an older release kept, fetched again for this one (or copied when the
 * network fails), so that a new release does not forget them. */
async function carryTables(oldNames) {
  const cache = await caches.open(CACHE);
  for (const name of oldNames) {
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      if (!isTablePage(request.url) || (await cache.match(request.url))) continue;
      if (!(await keepTable(cache, request.url))) {
        const response = await old.match(request);
        if (response) await cache.put(keyOf(request.url), response);
      }
    }
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      const old = names.filter((name) => name.startsWith("companion-") && name !== CACHE);
      await carryTables(old);
      await Promise.all(old.map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

// A page asks to be kept: {type: "keep", url}; the answer (true when kept) on the port given.
self.addEventListener("message", (event) => {
  const data = event.data ?? {};
  if (data.type !== "keep" || typeof data.url !== "string") return;
  const url = new URL(data.url, self.location.origin);
  const reply = (kept) => event.ports[0]?.postMessage(kept);
  if (url.origin !== self.location.origin || !cacheable({ method: "GET" }, url)) {
    reply(false);
    return;
  }
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => (isTablePage(url.href) ? keepTable(cache, url.href) : keep(cache, keyOf(url.href))))
      .then(reply),
  );
});

function cacheable(request, url) {
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith("/api/") || url.pathname === "/sw.js") return false;
  // A request with a token is the token holder's alone: neither kept nor answered from a copy.
  if (request.headers?.has("Authorization")) return false;
  return true;
}

/** Whether a response may be kept: the site's own, a success, and not marked `private` (one
 * reader's alone: the organiser's part of an event's page, a table's write tokens). */
function keepable(response) {
  if (!response.ok || response.type !== "basic") return false;
  const control = (response.headers.get("Cache-Control") ?? "").toLowerCase();
  return !/(^|,)\s*private\s*(,|$)/.test(control);
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (keepable(response)) cache.put(keyOf(request.url), response.clone());
    return response;
  } catch (error) {
    const key = keyOf(request.url);
    const kept = (await cache.match(key)) ?? (await cache.match(key, { ignoreSearch: true }));
    if (kept) return kept;
    if (request.mode === "navigate") {
      const home = await cache.match("/");
      if (home) return home;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (!cacheable(event.request, url)) return;
  event.respondWith(networkFirst(event.request));
});
