// The organiser tokens this device keeps (localStorage), one key per kind: an event's
// (event-organiser.js) and a club's (club-organiser.js, club.js), by id. The organiser's page
// keeps one from its link; "forget" drops it, then every other trace of it goes
// (table-store.js: forgetTokens).

/** The tokens kept under `key`: `kept(id)`, `keep(id, name, token)`, `drop(id)`. */
export function tokenStore(key) {
  function stored() {
    try {
      const data = JSON.parse(localStorage.getItem(key) ?? "{}");
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch {
      return {};
    }
  }

  function write(entries) {
    try {
      localStorage.setItem(key, JSON.stringify(entries));
      return true;
    } catch {
      return false; // storage is off (private browsing): the token lives in the page only
    }
  }

  return {
    /** The kept token of `id`, or "". */
    kept(id) {
      return stored()[id]?.token ?? "";
    },
    /** Keep `id`'s token; false when this device keeps nothing. */
    keep(id, name, token) {
      const entries = stored();
      entries[id] = { token, name, seen: Date.now() };
      return write(entries);
    },
    drop(id) {
      const entries = stored();
      delete entries[id];
      write(entries);
    },
  };
}

/**
 * An organiser's part of a page, fetched with `token` from `url`: `{verdict: "ok", body}` with
 * the element `#organiser-body` of the answer, or `{verdict: "refused"}` (401, 403) or
 * `{verdict: "unknown"}` (no answer, or not one to show). Never kept by a cache: it carries
 * `Authorization` and the server marks it `private` (sw.js).
 */
export async function fetchPart(url, token) {
  let response;
  try {
    response = await fetch(url, {
      headers: { Accept: "text/html", Authorization: `Bearer ${token}` },
      cache: "no-store",
    });
  } catch {
    return { verdict: "unknown" };
  }
  if (response.status === 401 || response.status === 403) return { verdict: "refused" };
  if (!response.ok) return { verdict: "unknown" };
  const text = await response.text();
  const body = new DOMParser().parseFromString(text, "text/html").getElementById("organiser-body");
  return body ? { verdict: "ok", body } : { verdict: "unknown" };
}

/**
 * The organiser's token a page opens with: the link's (`#token=...`), else the one kept for
 * `id`, the first that `load(candidate)` does not find "refused" (each refusal said by
 * `refused()`); a token whose part could not be fetched ("unknown": offline) is taken all the
 * same. A link's token that loaded is shown once by `shown(token)` when the link says `new`, and
 * kept: then the address bar loses the fragment (not kept, it stays there). A link's token
 * that is not taken leaves the address bar too. Ends with `showAccess(token)`; answers the token
 * taken, or "".
 */
export async function takeToken({ store, id, name, load, refused, shown, showAccess }) {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  const bare = () => history.replaceState(null, "", location.pathname + location.search);
  let token = "";
  for (const candidate of [fromLink, store.kept(id)]) {
    if (!candidate) continue;
    const verdict = await load(candidate);
    if (verdict === "refused") {
      refused();
      continue;
    }
    token = candidate;
    if (verdict === "ok" && candidate === fromLink) {
      if (params.get("new")) shown(candidate);
      if (store.keep(id, name, candidate)) bare();
    }
    break;
  }
  if (fromLink && !token) bare();
  showAccess(token);
  return token;
}

/** The page's parts for the organiser (`data-organiser-only`) or for a reader without the
 * token (`data-reader-only`), shown as `token` says. */
export function showAccess(token) {
  document.body.dataset.access = token ? "organiser" : "read";
  for (const node of document.querySelectorAll("[data-reader-only]")) node.hidden = Boolean(token);
  for (const node of document.querySelectorAll("[data-organiser-only]")) node.hidden = !token;
}
