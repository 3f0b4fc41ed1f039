// The tables this browser can write to: their write tokens, kept in localStorage under one key.
// A token only ever leaves the browser as `Authorization: Bearer` to this server's own API.
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

export function forgetTable(id) {
  const tables = loadTables();
  delete tables[id];
  store(tables);
}

export function tokenFor(id) {
  return loadTables()[id]?.token ?? "";
}
