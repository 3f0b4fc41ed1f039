// Hands recorded while offline: kept in localStorage with their idempotency key until the
// server has them. Sent once when the connection returns: the key makes a second delivery
// (another tab, a retry after a lost answer) record nothing new; an entry leaves the outbox
// only when the server has answered for it (recorded) or the player discards it. An entry the
// server refuses on arrival stays, with the server's reason, for the player to fix or discard.
const KEY = "companion.outbox";

function load() {
  try {
    const items = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(items) ? items.filter((item) => item && typeof item.key === "string") : [];
  } catch {
    return [];
  }
}

function save(items) {
  try {
    localStorage.setItem(KEY, JSON.stringify(items));
    return true;
  } catch {
    return false;
  }
}

/** This table's waiting entries, oldest first. */
export function pending(table) {
  return load().filter((item) => item.table === table);
}

/** This table's wins and drawn hands waiting to be sent: each takes a hand number before the
 * next one recorded. */
export function waitingHands(table) {
  return pending(table).filter((item) => item.state === "waiting" && item.body.kind !== "payout").length;
}

/** Keep an entry {key, table, url, body, text}; false when the device cannot store it. */
export function keep(entry) {
  const items = load().filter((item) => item.key !== entry.key);
  items.push({ ...entry, state: "waiting", error: "", at: Date.now() });
  return save(items);
}

export function discard(key) {
  save(load().filter((item) => item.key !== key));
}

function update(key, changes) {
  save(load().map((item) => (item.key === key ? { ...item, ...changes } : item)));
}

let sending = false;

/**
 * Send this table's waiting entries, oldest first, each once.
 * @param {string} table
 * @param {(url: string, body: object) => Promise<{status: number, data: object}>} send
 * @returns {Promise<{sent: object[], refused: object[]}>}
 */
export async function flush(table, send) {
  const result = { sent: [], refused: [] };
  if (sending || !navigator.onLine) return result;
  sending = true;
  try {
    const run = async () => {
      for (const item of pending(table)) {
        if (item.state !== "waiting") continue;
        let answer;
        try {
          answer = await send(item.url, item.body);
        } catch {
          break; // still no connection: try again when it returns
        }
        if (answer.status === 200 || answer.status === 201) {
          discard(item.key);
          result.sent.push({ ...item, event: answer.data.event });
        } else if (answer.status >= 500 || answer.status === 429 || answer.status === 0) {
          break; // the server is busy: not a refusal, try again later
        } else {
          const error = answer.data?.error ?? String(answer.status);
          update(item.key, { state: "refused", error });
          result.refused.push({ ...item, error });
        }
      }
    };
    // One tab at a time sends (the key would make a second delivery harmless anyway).
    if (navigator.locks) await navigator.locks.request(`${KEY}.${table}`, run);
    else await run();
  } finally {
    sending = false;
  }
  return result;
}
