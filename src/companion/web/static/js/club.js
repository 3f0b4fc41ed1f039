// A club's leaderboard and players' pages (/c/{id}, /c/{id}/p/{name}) are read as loaded; this
// script does three things around them. The organiser's link opened here (`#token=...`) goes to
// the organiser's page. A private club's page, refused to a reader without the token, is fetched
// again with the token this device keeps for the club (token-store.js), if any, and shown. On a
// page read so, the downloads are fetched with the token too (a plain link would be refused).
import { tokenStore } from "./token-store.js";

const clubId = decodeURIComponent(location.pathname.split("/")[2] ?? "");

function withToken(token, accept) {
  return { headers: { Accept: accept, Authorization: `Bearer ${token}` }, cache: "no-store" };
}

/** The private page read with the token, swapped in for the refusal; false when refused. */
async function readPrivate(token) {
  let response;
  try {
    response = await fetch(location.href, withToken(token, "text/html"));
  } catch {
    return false;
  }
  if (!response.ok) return false;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  const main = fresh.querySelector("main");
  if (!main) return false;
  document.querySelector("main").replaceChildren(...[...main.childNodes].map((node) => document.importNode(node, true)));
  document.title = fresh.title;
  return true;
}

function fileName(response, url) {
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const found = /filename="?([^";]+)"?/.exec(disposition);
  if (found) return found[1];
  return new URL(url, location.href).searchParams.get("format") === "csv" ? "club.csv" : "club.json";
}

/** A download fetched with the token and handed to the browser as a file. */
async function download(link, token) {
  const response = await fetch(link.href, withToken(token, "*/*"));
  if (!response.ok) return;
  const blob = await response.blob();
  const address = URL.createObjectURL(blob);
  const save = document.createElement("a");
  save.href = address;
  save.download = fileName(response, link.href);
  document.body.append(save);
  save.click();
  save.remove();
  URL.revokeObjectURL(address);
}

if (new URLSearchParams(location.hash.slice(1)).get("token")) {
  location.replace(`/c/${encodeURIComponent(clubId)}/organise${location.hash}`);
} else {
  const token = tokenStore("companion.clubs").kept(clubId);
  if (document.querySelector("[data-private-club]") && token && (await readPrivate(token))) {
    document.body.dataset.access = "organiser";
    document.querySelector("main").addEventListener("click", (clicked) => {
      const link = clicked.target.closest("a[data-download]");
      if (!link) return;
      clicked.preventDefault();
      download(link, token);
    });
  }
  document.body.dataset.ready = "true";
}
