// The tables page: the create form shows the chosen profile's options and length fields only,
// and the tables this browser can write to are listed from localStorage (the server keeps no
// list).
import { t } from "./i18n.js";
import { followProfile, guardSubmit } from "./profile-choice.js";
import { forgetTable, loadTables } from "./table-store.js";
import { el } from "./tiles.js";

const form = document.getElementById("create-form");
const profileSelect = document.getElementById("create-profile");
const submit = document.getElementById("create-submit");
const mine = document.getElementById("my-tables");
const list = document.getElementById("my-tables-list");

function listTables() {
  const tables = Object.entries(loadTables()).sort(([, a], [, b]) => (b.seen ?? 0) - (a.seen ?? 0));
  const items = tables.map(([id, info]) => {
    const item = el("li", "table-item");
    const link = el("a", "table-link");
    link.href = `/t/${id}`;
    // Listed by its name (the players' names for a table without one), not by its id.
    const players = Array.isArray(info.players) ? info.players.join(", ") : "";
    const name = (typeof info.name === "string" && info.name) || players || t("table.title", { id });
    link.append(el("span", "table-list-name", name));
    const rules = info.profile ? t(`profile.${info.profile}`) : "";
    const details = [name === players ? "" : players, rules].filter(Boolean).join(" · ");
    if (details) link.append(el("span", "table-players", details));
    const forget = el("button", "small-button", t("tables.forget"));
    forget.type = "button";
    forget.setAttribute("aria-label", t("tables.forget_named", { id: name }));
    forget.addEventListener("click", async () => {
      if (!window.confirm(t("table.forget_confirm"))) return;
      await forgetTable(id);
      listTables();
    });
    item.append(link, forget);
    return item;
  });
  list.replaceChildren(...items);
  mine.hidden = !items.length;
}

followProfile(form, profileSelect);
guardSubmit(form, submit);
window.addEventListener("pageshow", listTables);
listTables();
document.body.dataset.ready = "true";
