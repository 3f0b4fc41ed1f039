// The tables this browser can write to: their write tokens, kept in localStorage under one key.
// A token only ever leaves the browser as `Authorization: Bearer` to this server's own API;
// forgetting a table removes every trace of its token from the device.
const KEY = "companion.tables";
const ID = /^[a-z0-9]{4,32}$/;

/** Every remembered table: {id: {token, players, profile, seen}}. */
export function loadTables() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    if (!data || typeof data !== "object" || Array.isArray(data)) return {};
    const tables = {};
    for (const [id, info] of Object.entries(data)) {
      if (ID.test(id) && info && typeof info.token === "string" && info.token) tables[id] = info;
    }
    return tables;
  } catch {
    return {};
  }
}

function store(tables) {
  try {
    localStorage.setItem(KEY, JSON.stringify(tables));
    return true;
  } catch {
    return false; // Storage is off (private browsing): the token lives in the page only.
  }
}

/** Remember a table's token (and what to list it by); false when storage is unavailable. */
export function rememberTable(id, info) {
  const tables = loadTables();
  tables[id] = { ...tables[id], ...info };
  return store(tables);
}

/**
 * Forget a table's write link on this device: its entry here, then every other trace of its
 * token (and of `alsoTokens`: a token the page holds without having stored it). Resolves once
 * the device holds none.
 * @param {string} id
 * @param {string[]} alsoTokens
 */
export async function forgetTable(id, alsoTokens = []) {
  const tokens = [tokenFor(id), ...alsoTokens].filter(Boolean);
  const tables = loadTables();
  delete tables[id];
  store(tables);
  await eraseTraces(new Set(tokens));
}

/**
 * Forget tokens that are no table's entry here (an event's organiser token): every trace of
 * them on the device, as `forgetTable` leaves none of a table's.
 * @param {string[]} tokens
 */
export async function forgetTokens(tokens) {
  await eraseTraces(new Set(tokens.filter(Boolean)));
}

/** Whether `text` holds one of `tokens`, as it is or as a URL carries it. */
function holdsToken(text, tokens) {
  if (typeof text !== "string") return false;
  for (const token of tokens) {
    if (text.includes(token) || text.includes(encodeURIComponent(token))) return true;
  }
  return false;
}

/**
 * Remove `tokens` from wherever a page of this site may have put them: the address bar (a write
 * link's fragment, which stays there when the link could not be checked or stored), Web
 * Storage, and the service worker's Cache Storage (its keys never hold the fragment and the
 * server never renders a token, but a copy that held one would outlive the forgetting).
 * The outbox (outbox.js) keeps its entries: they hold no token and are sent only by a device
 * that has one again. Companion keeps nothing in IndexedDB.
 * @param {Set<string>} tokens
 */
async function eraseTraces(tokens) {
  if (!tokens.size) return;
  if (holdsToken(location.hash, tokens)) {
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  for (const area of [globalThis.localStorage, globalThis.sessionStorage]) {
    try {
      const keys = Array.from({ length: area.length }, (_, index) => area.key(index));
      for (const key of keys) {
        if (holdsToken(key, tokens) || holdsToken(area.getItem(key), tokens)) area.removeItem(key);
      }
    } catch {
      // Storage is off (private browsing): it holds nothing.
    }
  }
  try {
    // Cache Storage exists in secure contexts only (not http on the local network).
    if (!globalThis.caches) return;
    for (const name of await caches.keys()) {
      if (name.startsWith("companion-")) await eraseFromCache(await caches.open(name), tokens);
    }
  } catch {
    // Cache Storage failed (a release's service worker deleting a cache as it is read): the
    // entries not yet read stay as they were.
  }
}

/** A cached copy that holds a token: kept again without it where it can be (a key with the
 * write link's fragment: the same page under its bare URL; a page whose body holds it: a fresh
 * copy from the server, which never renders a token), else deleted.
 * @param {Cache} cache
 * @param {Set<string>} tokens
 */
async function eraseFromCache(cache, tokens) {
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    if (!response) continue;
    const inBody = holdsToken(await response.clone().text(), tokens);
    if (!inBody && !holdsToken(request.url, tokens) && !holdsToken(response.url, tokens)) continue;
    await cache.delete(request);
    const bare = new URL(request.url);
    bare.hash = "";
    if (holdsToken(bare.href, tokens)) continue;
    if (!inBody) await cache.put(bare.href, response);
    else await cache.add(bare.href).catch(() => {}); // offline, or gone from the server: deleted
  }
}

export function tokenFor(id) {
  return loadTables()[id]?.token ?? "";
}
