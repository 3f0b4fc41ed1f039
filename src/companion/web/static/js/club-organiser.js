// A club's organiser's page (/c/{id}/organise). The club's token comes as an event's does: in
// the link's fragment (`#token=...`), which browsers never send to a server. It is kept on this
// device (token-store.js), taken out of the address bar, and sent as `Authorization: Bearer` to
// fetch the organiser's part (the roster and its forms) and with every form to the JSON API
// (/api/clubs/{id}/...), which checks it whatever the page shows. Neither the part nor the
// API's answers are kept by the service worker: they carry `Authorization` and come back
// `private` (sw.js).
import { pageData, t } from "./i18n.js";
import { refusalText } from "./result-view.js";
import { copyText } from "./share.js";
import { forgetTokens } from "./table-store.js";
import { fetchPart, showAccess, takeToken, tokenStore } from "./token-store.js";

const club = pageData.club;
const store = tokenStore("companion.clubs");
const panel = document.getElementById("organiser-panel");
const accessNotice = document.getElementById("access-notice");
let token = "";
const forgotten = new Set(); // tokens forgotten here: a fetch still under way is not shown

function say(text) {
  document.getElementById("action-status").textContent = text;
}

/** The organiser's part, fetched with `candidate`: "ok", "refused" or "unknown". */
async function loadPanel(candidate) {
  const { verdict, body } = await fetchPart(pageData.api.panel, candidate);
  if (verdict !== "ok") return verdict;
  if (forgotten.has(candidate)) return "refused";
  panel.replaceChildren(document.importNode(body, true));
  accessNotice.hidden = true;
  return "ok";
}

/** Just made on the clubs page: the organiser's link is shown once, to keep. */
function showNewClub(value) {
  const box = document.getElementById("new-club");
  const input = document.getElementById("organiser-link");
  input.value = `${pageData.shareBase}/c/${club.id}/organise#token=${encodeURIComponent(value)}`;
  box.hidden = false;
  document.getElementById("copy-organiser-link").addEventListener("click", async () => {
    const verdict = await copyText(input.value, input);
    say(t(verdict === "copied" ? "table.copied" : "table.copy_manual"));
  });
}

/** Forget the organiser's link on this device: its entry here, then every other trace of the
 * token (the address bar, Web Storage, Cache Storage); the organiser's part leaves the page. */
async function forget() {
  if (!window.confirm(t("club.forget_confirm"))) return;
  const dropped = token;
  forgotten.add(dropped);
  token = "";
  panel.replaceChildren();
  store.drop(club.id);
  await forgetTokens([dropped]);
  say("");
  showAccess(token);
}

/** What each form sends to the JSON API, and what is said once it is done. */
function request(form) {
  const data = Object.fromEntries(new FormData(form));
  const api = pageData.api.club;
  switch (form.dataset.action) {
    case "add": {
      const body = { name: data.name };
      if (data.nickname.trim()) body.nickname = data.nickname;
      if (data.ema_id.trim()) body.ema_id = data.ema_id;
      return { url: `${api}/players`, body, done: (answer) => t("club.done_add", { name: answer.name }) };
    }
    case "rename":
      return {
        url: `${api}/players/rename`,
        body: { name: data.name, new_name: data.new_name },
        done: (answer) => t("club.done_rename", { name: data.name, new_name: answer.name }),
      };
    case "merge":
      return {
        url: `${api}/players/merge`,
        body: { name: data.name, into: data.into },
        done: (answer) => t("club.done_merge", { name: answer.name, into: data.into }),
      };
    case "unmerge":
      return {
        url: `${api}/players/unmerge`,
        body: { name: data.name },
        done: (answer) => t("club.done_unmerge", { name: answer.name }),
      };
    case "attach":
      return {
        url: `${api}/attach`,
        body: { [data.kind === "event" ? "event" : "table"]: data.id.trim() },
        done: (answer) =>
          answer.joined?.length
            ? t("club.joined_roster", { names: answer.joined.join(", ") })
            : t("club.joined_none"),
      };
    default:
      return {
        url: `${api}/settings`,
        body: { private: data.private === "on" },
        done: (answer) => t(answer.private ? "club.now_private" : "club.now_public"),
      };
  }
}

async function act(form) {
  const { url, body, done } = request(form);
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  let response;
  let answer = {};
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    answer = await response.json().catch(() => ({}));
  } catch {
    say(t("result.network"));
    button.disabled = false;
    return;
  }
  button.disabled = false;
  if (!response.ok) {
    say(t("club.refused", { why: refusalText(answer) || response.status }));
    return;
  }
  const said = done(answer);
  await loadPanel(token);
  say(said);
}

panel.addEventListener("submit", (submitted) => {
  const form = submitted.target.closest("form[data-action]");
  if (!form) return;
  submitted.preventDefault();
  act(form);
});
document.getElementById("forget-organiser").addEventListener("click", forget);
token = await takeToken({
  store,
  id: club.id,
  name: club.name,
  load: loadPanel,
  refused: () => {
    accessNotice.textContent = t("club.token_refused");
    accessNotice.hidden = false;
  },
  shown: showNewClub,
  showAccess,
});
document.body.dataset.ready = "true";
