// The calculator page: the hand editor, the win context and a live result from the HTTP API.
import { HandEditor } from "./hand-editor.js";
import { pageData, setUnit, t, tileName, tOr } from "./i18n.js";
import { renderError, renderMessage, renderResult, renderWaits } from "./result-view.js";
import { el, SEATS } from "./tiles.js";

const SETTINGS_KEY = "companion.calculator.settings";

const profiles = new Map(pageData.profiles.map((profile) => [profile.id, profile]));
const form = document.getElementById("context-form");
const profileSelect = document.getElementById("profile");
const resultBody = document.getElementById("result-body");
const bar = document.getElementById("result-bar");
const barStatus = document.getElementById("result-bar-status");
const status = document.getElementById("result-status");
const eventsBox = document.getElementById("events");
const eventsCount = document.getElementById("events-count");
const optionsBox = document.getElementById("options");
const fieldsBox = document.getElementById("profile-fields");
const pageTitle = document.querySelector(".page-title");
const editor = new HandEditor(document.getElementById("hand-editor"), {
  storageKey: "companion.calculator.hand",
});

let timer = 0;
let controller = null;
let sequence = 0;

function currentProfile() {
  return profiles.get(profileSelect.value) ?? pageData.profiles[0];
}

// --- The profile's own fields --------------------------------------------------------------

function segmented(name, legend, choices, checked) {
  const fieldset = el("fieldset", "segmented");
  fieldset.dataset.field = name;
  fieldset.append(el("legend", "", legend));
  const segments = el("div", "segments");
  for (const [value, label] of choices) {
    const wrapper = el("label");
    const input = el("input");
    input.type = "radio";
    input.name = name;
    input.value = value;
    input.checked = value === checked;
    wrapper.append(input, el("span", "", label));
    segments.append(wrapper);
  }
  fieldset.append(segments);
  return fieldset;
}

function numberField(name, label, value, { min = 0, step = "1", blank = false } = {}) {
  const wrapper = el("div", "field");
  const id = `field-${name}`;
  const labelEl = el("label", "", label);
  labelEl.htmlFor = id;
  const input = el("input");
  input.id = id;
  input.name = name;
  input.type = "number";
  input.inputMode = step === "1" ? "numeric" : "decimal";
  input.min = String(min);
  input.step = step;
  input.value = value === null || value === undefined ? "" : String(value);
  if (!blank) input.required = true;
  wrapper.append(labelEl, input);
  return wrapper;
}

function selectField(name, label, choices, value) {
  const wrapper = el("div", "field");
  const id = `field-${name}`;
  const labelEl = el("label", "", label);
  labelEl.htmlFor = id;
  const select = el("select");
  select.id = id;
  select.name = name;
  for (const [choice, text] of choices) {
    const option = el("option", "", text);
    option.value = choice;
    option.selected = choice === value;
    select.append(option);
  }
  wrapper.append(labelEl, select);
  return wrapper;
}

function checkField(name, value, label, checked) {
  const wrapper = el("label", "check");
  const input = el("input");
  input.type = "checkbox";
  input.name = name;
  input.value = value;
  input.checked = checked;
  wrapper.append(input, el("span", "", label));
  return wrapper;
}

function renderProfileFields(profile, saved) {
  const parts = [];
  const seats = SEATS.map((seat) => [seat, t(`seat.${seat}`)]);
  if (profile.fields.includes("dealer")) {
    parts.push(segmented("dealer", t("ctx.dealer"), seats, saved.dealer ?? "E"));
  }
  if (profile.fields.includes("dealer_streak")) {
    parts.push(numberField("dealer_streak", t("ctx.dealer_streak"), saved.dealer_streak ?? 0));
  }
  if (profile.fields.includes("table_discards")) {
    parts.push(
      numberField("table_discards", t("ctx.table_discards"), saved.table_discards ?? "", {
        blank: true,
      }),
    );
  }
  if (profile.fields.includes("liable")) {
    const choices = [["", t("ctx.nobody")], ...seats];
    parts.push(selectField("liable", t("ctx.liable"), choices, saved.liable ?? ""));
  }
  if (profile.flower_wins.length) {
    const choices = [["", t("flower_win.none")]];
    for (const kind of profile.flower_wins) choices.push([kind, tOr(`flower_win.${kind}`, kind)]);
    parts.push(segmented("flower_win", t("ctx.flower_win"), choices, saved.flower_win ?? ""));
  }
  fieldsBox.replaceChildren(...parts);
}

function renderEvents(profile, saved) {
  const checked = new Set(saved.events ?? []);
  eventsBox.replaceChildren(
    ...profile.events.map((event) =>
      checkField("events", event, tOr(`event.${event}`, event), checked.has(event)),
    ),
  );
}

/** The profile's own label (`option.hk.seven_pairs`), else the shared one; an option that
 * admits a pattern shows the pattern's value after it, in the profile's unit (i18n.py's
 * Translator.option_label does the same for the create form). */
function optionLabel(profile, option) {
  const own = `option.${profile.id}.${option.name}`;
  const key = own in pageData.messages ? own : `option.${option.name}`;
  const label = tOr(key, option.name.replaceAll("_", " "));
  return "value" in option ? t("option.value", { label, n: option.value }) : label;
}

/** The options that change a hand's score (not a table's rules, such as how the deal passes). */
function scoringOptions(profile) {
  return profile.options.filter((option) => !option.table_rule);
}

function renderOptions(profile, saved) {
  const values = saved.options ?? {};
  const parts = scoringOptions(profile).map((option) => {
    const name = `option:${option.name}`;
    const value = values[option.name] ?? option.default;
    if (option.type === "bool") {
      return checkField(name, "true", optionLabel(profile, option), value === true);
    }
    if (option.type === "choice") {
      const choices = option.choices.map((choice) => [
        choice,
        tOr(`option.${option.name}.${choice}`, choice),
      ]);
      return selectField(name, optionLabel(profile, option), choices, value);
    }
    const step = option.type === "int" ? "1" : "any";
    return numberField(name, optionLabel(profile, option), value, { step });
  });
  optionsBox.replaceChildren(...parts);
}

function applyProfile(saved = {}) {
  const profile = currentProfile();
  setUnit(profile.unit);
  pageTitle.textContent = t("calc.title");
  editor.setProfile({ sets: profile.sets, animals: profile.animals });
  renderProfileFields(profile, saved);
  renderEvents(profile, saved);
  renderOptions(profile, saved.profile === profile.id ? saved : {});
  syncWinFields();
}

// --- The request ---------------------------------------------------------------------------

function syncWinFields() {
  const data = new FormData(form);
  const discard = data.get("win") === "discard";
  const fromField = form.querySelector('[data-field="discarder"]');
  fromField.hidden = !discard;
  const seat = data.get("seat");
  for (const input of fromField.querySelectorAll("input")) {
    input.disabled = input.value === seat;
  }
  const chosen = fromField.querySelector("input:checked");
  if (!chosen || chosen.disabled) {
    const next = SEATS[(SEATS.indexOf(seat) + 1) % 4];
    fromField.querySelector(`input[value="${next}"]`).checked = true;
  }
  const checkedEvents = form.querySelectorAll('input[name="events"]:checked').length;
  eventsCount.textContent = checkedEvents ? `(${checkedEvents})` : "";
}

function readOptions(profile, data) {
  const options = {};
  for (const option of scoringOptions(profile)) {
    const name = `option:${option.name}`;
    if (option.type === "bool") {
      options[option.name] = data.get(name) === "true";
      continue;
    }
    const raw = String(data.get(name) ?? "").trim();
    if (!raw) continue;
    if (option.type === "int") {
      const value = Number(raw);
      if (Number.isInteger(value)) options[option.name] = value;
    } else {
      options[option.name] = raw;
    }
  }
  return options;
}

/** The scoring request (docs/contract.md) the page describes. */
function buildRequest() {
  const profile = currentProfile();
  const data = new FormData(form);
  const request = {
    profile: profile.id,
    win: data.get("win"),
    seat: data.get("seat"),
    round: data.get("round"),
  };
  if (request.win === "discard") request.discarder = data.get("discarder");
  const events = data.getAll("events");
  if (events.length) request.events = events;
  if (data.has("dealer")) request.dealer = data.get("dealer");
  for (const name of ["dealer_streak", "table_discards"]) {
    const raw = String(data.get(name) ?? "").trim();
    if (raw && Number.isInteger(Number(raw)) && Number(raw) >= 0) request[name] = Number(raw);
  }
  if (data.get("liable")) request.liable = data.get("liable");
  const flowerWin = data.get("flower_win");
  const options = readOptions(profile, data);
  if (Object.keys(options).length) request.options = options;
  const hand = editor.toRequest();
  if (flowerWin) {
    request.flower_win = flowerWin;
    if (hand.bonus) request.bonus = hand.bonus;
  } else {
    Object.assign(request, hand);
  }
  return request;
}

function saveSettings() {
  const data = new FormData(form);
  const profile = currentProfile();
  const settings = {
    profile: profile.id,
    win: data.get("win"),
    discarder: data.get("discarder"),
    seat: data.get("seat"),
    round: data.get("round"),
    events: data.getAll("events"),
    dealer: data.get("dealer"),
    dealer_streak: data.get("dealer_streak"),
    table_discards: data.get("table_discards"),
    liable: data.get("liable"),
    flower_win: data.get("flower_win"),
    options: readOptions(profile, data),
  };
  try {
    sessionStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Not kept without storage.
  }
}

function loadSettings() {
  try {
    const settings = JSON.parse(sessionStorage.getItem(SETTINGS_KEY) ?? "{}");
    return settings && typeof settings === "object" ? settings : {};
  } catch {
    return {};
  }
}

function restoreRadios(settings) {
  for (const name of ["win", "discarder", "seat", "round"]) {
    const value = settings[name];
    if (typeof value !== "string") continue;
    const input = form.querySelector(`input[name="${name}"][value="${CSS.escape(value)}"]`);
    if (input) input.checked = true;
  }
}

/** New hand: the tiles and how this hand was won go; the profile, the round, the dealer (and
 * the dealer's count) and the options stay, as they do at a table from one hand to the next.
 * Clear, beside it, empties the tiles only. */
function newHand() {
  editor.clear();
  form.querySelector('input[name="win"][value="self_draw"]').checked = true;
  form.querySelector('input[name="seat"][value="E"]').checked = true;
  for (const box of form.querySelectorAll('input[name="events"]')) box.checked = false;
  const noFlowerWin = form.querySelector('input[name="flower_win"][value=""]');
  if (noFlowerWin) noFlowerWin.checked = true;
  for (const name of ["table_discards", "liable"]) {
    if (form.elements[name]) form.elements[name].value = "";
  }
  schedule();
}

// --- The result ----------------------------------------------------------------------------

function showBar(kind, text) {
  bar.hidden = !text;
  bar.classList.remove("good", "bad", "waiting");
  if (kind) bar.classList.add(kind);
  barStatus.textContent = text;
  if (status.textContent !== text) status.textContent = text;
}

function schedule() {
  syncWinFields();
  saveSettings();
  window.clearTimeout(timer);
  timer = window.setTimeout(update, 120);
}

async function post(url, body, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { error: t("result.network") };
  }
  return { ok: response.ok, data };
}

async function update() {
  const profile = currentProfile();
  const request = buildRequest();
  const count = editor.structural();
  const needed = 3 * profile.sets + 2;
  controller?.abort();
  const mine = ++sequence;
  if (!request.flower_win) {
    if (editor.isEmpty()) {
      renderMessage(resultBody, t("result.empty"));
      showBar("", "");
      return;
    }
    if (count < needed - 1) {
      const text = t("result.need_more", { n: needed - count });
      renderMessage(resultBody, `${text} ${t("result.need_one")}`);
      showBar("", text);
      return;
    }
  }
  const waiting = !request.flower_win && count === needed - 1;
  controller = new AbortController();
  resultBody.setAttribute("aria-busy", "true");
  try {
    const url = waiting ? pageData.api.waits : pageData.api.score;
    const { ok, data } = await post(url, request, controller.signal);
    if (mine !== sequence) return;
    if (!ok) {
      renderError(resultBody, data.error ? data : t("result.network"));
      showBar("bad", t("result.invalid"));
    } else if (waiting) {
      renderWaits(resultBody, data, (tile) => editor.addWinningTile(tile));
      // One line on a phone: the waits themselves are in the sheet the bar leads to.
      showBar("waiting", t("result.one_short"));
    } else {
      renderResult(resultBody, data);
      if (data.valid) {
        showBar("good", `${t("result.valid")} · ${t("result.tai", { n: data.tai })}`);
      } else {
        showBar("bad", t("result.invalid"));
      }
    }
  } catch (error) {
    if (error.name === "AbortError") return;
    renderMessage(resultBody, t("result.network"), "bad");
    showBar("bad", t("result.network"));
  } finally {
    if (mine === sequence) resultBody.setAttribute("aria-busy", "false");
  }
}

// --- Start ---------------------------------------------------------------------------------

const saved = loadSettings();
if (typeof saved.profile === "string" && profiles.has(saved.profile)) {
  profileSelect.value = saved.profile;
}
restoreRadios(saved);
applyProfile(saved);

form.addEventListener("submit", (event) => event.preventDefault());
form.addEventListener("change", schedule);
form.addEventListener("input", schedule);
editor.addEventListener("change", schedule);
document.querySelector("#hand-editor [data-fresh]").addEventListener("click", newHand);
profileSelect.addEventListener("change", () => {
  applyProfile(loadSettings());
  schedule();
});
document.body.dataset.ready = "true";
update();
