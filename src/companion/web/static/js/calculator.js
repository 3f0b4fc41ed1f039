// The calculator page: the hand editor, the win context and a live result from the HTTP API.
import { HandEditor } from "./hand-editor.js";
import { applyPreset as setPreset } from "./presets.js";
import { pageData, setUnit, t, tileName, tOr } from "./i18n.js";
import { renderError, renderMessage, renderResult, renderWaits, verdictLine } from "./result-view.js";
import { el, tileSvg } from "./tiles.js";

const SETTINGS_KEY = "companion.calculator.settings";

const profiles = new Map(pageData.profiles.map((profile) => [profile.id, profile]));
const form = document.getElementById("context-form");
const profileSelect = document.getElementById("profile");
const profileAbout = document.getElementById("profile-about");
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

const MAX_INDICATORS = 5; // the first dora indicator and one for each of four kongs
const INDICATOR_ROWS = ["m", "p", "s", "z"].map((suit) =>
  Array.from({ length: suit === "z" ? 7 : 9 }, (_, index) => `${index + 1}${suit}`),
);
// The dora indicators on the page (riichi): shown as chips, sent as `dora` and `ura_dora`.
const indicators = { dora: [], ura_dora: [] };
// Tiles set aside beside the hand (sanma's North: `kita`), by the profile's `set_aside`.
let asideCount = 0;
let indicatorTarget = "dora";

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
  const seats = profile.seats.map((seat) => [seat, t(`seat.${seat}`)]);
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
    const label = tOr(`ctx.${profile.family}.liable`, t("ctx.liable"));
    const liable = profile.seats.includes(saved.liable) ? saved.liable : "";
    parts.push(selectField("liable", label, choices, liable));
  }
  if (profile.fields.includes("honba")) {
    parts.push(numberField("honba", t("ctx.honba"), saved.honba ?? 0));
  }
  if (profile.fields.includes("riichi_sticks")) {
    parts.push(numberField("riichi_sticks", t("ctx.riichi_sticks"), saved.riichi_sticks ?? 0));
  }
  if (profile.fields.includes("dora")) {
    for (const field of ["dora", "ura_dora"]) {
      const tiles = Array.isArray(saved[field]) ? saved[field] : [];
      indicators[field] = tiles
        .filter((tile) => /^([1-9][mps]|[1-7]z)$/.test(tile) && !profile.out_of_play.includes(tile))
        .slice(0, MAX_INDICATORS);
    }
    parts.push(doraPanel(profile));
  }
  if (profile.set_aside) {
    const savedCount = Number(saved[profile.set_aside.field]);
    asideCount = Number.isInteger(savedCount) ? Math.max(0, Math.min(savedCount, profile.set_aside.most)) : 0;
    parts.push(asidePanel(profile));
  } else {
    asideCount = 0;
  }
  if (profile.flower_wins.length) {
    const choices = [["", t("flower_win.none")]];
    for (const kind of profile.flower_wins) choices.push([kind, tOr(`flower_win.${kind}`, kind)]);
    parts.push(segmented("flower_win", t("ctx.flower_win"), choices, saved.flower_win ?? ""));
  }
  fieldsBox.replaceChildren(...parts);
}

// --- Dora indicators (riichi) ------------------------------------------------------------------

/** The dora panel: the indicators as chips (a tap takes one out), which list a tap adds to, and
 * a picker of every kind. */
function doraPanel(profile) {
  const panel = el("div", "dora-panel");
  panel.dataset.field = "dora";
  for (const field of ["dora", "ura_dora"]) {
    const line = el("div", "dora-line");
    line.dataset.indicators = field;
    line.append(el("span", "dora-label", t(`ctx.${field}`)), el("span", "chips"));
    panel.append(line);
  }
  const target = el("fieldset", "segmented dora-target");
  target.append(el("legend", "", t("ctx.dora_tap")));
  const segments = el("div", "segments");
  for (const field of ["dora", "ura_dora"]) {
    const label = el("label");
    const input = el("input");
    input.type = "radio";
    input.name = "dora-target";
    input.value = field;
    input.checked = field === indicatorTarget;
    input.dataset.doraTarget = field;
    label.append(input, el("span", "", t(`ctx.${field}_short`)));
    segments.append(label);
  }
  target.append(segments);
  const picker = el("div", "picker dora-picker");
  picker.setAttribute("role", "group");
  picker.setAttribute("aria-label", t("ctx.dora_picker"));
  for (const row of INDICATOR_ROWS) {
    const rowEl = el("div", "picker-row");
    for (const tile of row) {
      if (profile.out_of_play.includes(tile)) continue;
      const button = el("button", "tile-button");
      button.type = "button";
      button.dataset.indicator = tile;
      button.setAttribute("aria-label", t("ctx.add_indicator", { name: tileName(tile) }));
      button.append(tileSvg(tile));
      rowEl.append(button);
    }
    picker.append(rowEl);
  }
  const details = el("details", "more dora-more");
  const summary = el("summary", "", t("ctx.dora_add"));
  details.append(summary, target, picker);
  panel.append(details);
  picker.addEventListener("click", (event) => {
    const button = event.target.closest("[data-indicator]");
    if (!button || button.disabled) return;
    const field = uraOffered() ? indicatorTarget : "dora";
    if (indicators[field].length >= MAX_INDICATORS) return;
    indicators[field].push(button.dataset.indicator);
    renderIndicators();
    schedule();
  });
  target.addEventListener("change", (event) => {
    indicatorTarget = event.target.value;
    event.stopPropagation();
    renderIndicators();
  });
  panel.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-chip]");
    if (!chip) return;
    const [field, index] = chip.dataset.chip.split(":");
    indicators[field].splice(Number(index), 1);
    renderIndicators();
    schedule();
    panel.querySelector(`[data-indicators="${field}"] .chip`)?.focus();
  });
  return panel;
}

/** Ura dora count only under riichi: offered when riichi or double riichi is ticked. */
function uraOffered() {
  return [...form.querySelectorAll('input[name="events"]:checked')].some((box) =>
    ["riichi", "double_riichi"].includes(box.value),
  );
}

function renderIndicators() {
  const panel = fieldsBox.querySelector(".dora-panel");
  if (!panel) return;
  const ura = uraOffered();
  if (!ura) indicatorTarget = "dora";
  for (const field of ["dora", "ura_dora"]) {
    const line = panel.querySelector(`[data-indicators="${field}"]`);
    line.hidden = field === "ura_dora" && !ura;
    const chips = indicators[field].map((tile, index) => {
      const chip = el("button", "chip");
      chip.type = "button";
      chip.dataset.chip = `${field}:${index}`;
      chip.dataset.tile = tile;
      chip.setAttribute("aria-label", t(`ctx.remove_${field}`, { name: tileName(tile) }));
      chip.append(tileSvg(tile), el("span", "chip-x", "×"));
      return chip;
    });
    if (!chips.length) chips.push(el("span", "hint", t("ctx.no_indicators")));
    line.querySelector(".chips").replaceChildren(...chips);
  }
  const target = panel.querySelector(".dora-target");
  target.hidden = !ura;
  for (const input of target.querySelectorAll("input")) input.checked = input.value === indicatorTarget;
  const full = indicators[indicatorTarget].length >= MAX_INDICATORS;
  for (const button of panel.querySelectorAll("[data-indicator]")) button.disabled = full;
}

// --- Tiles set aside (sanma's kita) -----------------------------------------------------------

/** A counter of the tiles set aside (sanma's North, `kita`): minus and plus, from none to the
 * profile's most, and never more of the tile than four counting those in the hand. */
function asidePanel(profile) {
  const { field, tile } = profile.set_aside;
  const wrapper = el("div", "field aside-field");
  wrapper.dataset.field = field;
  const label = el("span", "aside-label", tOr(`ctx.${field}`, field));
  label.id = `field-${field}-label`;
  const row = el("div", "aside-row");
  row.setAttribute("role", "group");
  row.setAttribute("aria-labelledby", label.id);
  const less = el("button", "small-button aside-step", "−");
  less.type = "button";
  less.dataset.aside = "-1";
  less.setAttribute("aria-label", t("ctx.aside_less", { name: tileName(tile) }));
  const more = el("button", "small-button aside-step", "+");
  more.type = "button";
  more.dataset.aside = "1";
  more.setAttribute("aria-label", t("ctx.aside_more", { name: tileName(tile) }));
  const count = el("output", "aside-count");
  count.dataset.asideCount = "";
  count.setAttribute("aria-live", "polite");
  const icon = el("span", "aside-tile");
  icon.append(tileSvg(tile, tileName(tile)));
  row.append(icon, less, count, more);
  wrapper.append(label, row);
  row.addEventListener("click", (event) => {
    const button = event.target.closest("[data-aside]");
    if (!button || button.disabled) return;
    asideCount += Number(button.dataset.aside);
    renderAside();
    schedule();
  });
  return wrapper;
}

/** The most tiles that may be set aside now: the profile's most, less those of the kind the
 * hand holds beyond what four leave. */
function asideMost(profile) {
  const held = editor.counts().get(profile.set_aside.tile) ?? 0;
  return Math.max(0, Math.min(profile.set_aside.most, 4 - held));
}

function renderAside() {
  const profile = currentProfile();
  const box = fieldsBox.querySelector(".aside-field");
  if (!profile.set_aside || !box) return;
  asideCount = Math.max(0, Math.min(asideCount, asideMost(profile)));
  box.querySelector("[data-aside-count]").textContent = String(asideCount);
  box.querySelector('[data-aside="-1"]').disabled = asideCount <= 0;
  box.querySelector('[data-aside="1"]').disabled = asideCount >= asideMost(profile);
  editor.setAside(profile.set_aside.tile, asideCount);
}

// --- Events ----------------------------------------------------------------------------------

/** The label of an event: the profile's own (`event.riichi.replacement`: rinshan kaihou) or the
 * shared one. */
function eventLabel(profile, event) {
  return tOr(`event.${profile.family}.${event}`, tOr(`event.${event}`, event));
}

function renderEvents(profile, saved) {
  const checked = new Set(saved.events ?? []);
  eventsBox.replaceChildren(
    ...profile.events.map((event) => {
      const box = checkField("events", event, eventLabel(profile, event), checked.has(event));
      box.dataset.event = event;
      if (profile.family in EVENT_PROBLEMS) box.append(el("small", "check-why"));
      return box;
    }),
  );
}

/** Why a riichi event cannot have happened with the rest of the page, or "" (the engine refuses
 * the same pairs, rules/riichi/engine.py's check_events; this says so before asking it). */
function riichiEventProblem(event, on, context) {
  const { discard, dealer, claimed, kong, aside, melds, renhou } = context;
  const other = (name) => t("calc.why.not_with", { event: t(`event.${name}`) });
  switch (event) {
    case "riichi":
      if (on.has("double_riichi")) return other("double_riichi");
      return claimed ? t("calc.why.claimed") : "";
    case "double_riichi":
      if (on.has("riichi")) return other("riichi");
      return claimed ? t("calc.why.claimed") : "";
    case "ippatsu":
      return on.has("riichi") || on.has("double_riichi") ? "" : t("calc.why.needs_riichi");
    case "replacement":
      if (discard) return t("calc.why.self_draw_only");
      // Where a tile is set aside (sanma's kita), its replacement tile wins a rinshan too.
      if (!kong && aside === null) return t("calc.why.needs_kong");
      if (!kong && !aside) return t("calc.why.needs_kong_or_aside");
      return on.has("last_tile") ? other("last_tile") : "";
    case "last_tile":
      if (discard) return t("calc.why.self_draw_only");
      return on.has("replacement") ? other("replacement") : "";
    case "last_discard":
    case "robbing_kong":
      return discard ? "" : t("calc.why.discard_only");
    case "heavenly":
      if (!dealer) return t("calc.why.dealer_only");
      if (discard) return t("calc.why.self_draw_only");
      return melds ? t("calc.why.no_melds") : "";
    case "earthly":
      if (dealer) return t("calc.why.not_dealer");
      if (discard) return t("calc.why.self_draw_only");
      return melds ? t("calc.why.no_melds") : "";
    case "renhou":
      if (!renhou) return t("calc.why.renhou_off");
      if (dealer) return t("calc.why.not_dealer");
      if (!discard) return t("calc.why.discard_only");
      return melds ? t("calc.why.no_melds") : "";
    default:
      return "";
  }
}

/** Why an MCR event cannot have happened with the rest of the page, or "" (the engine refuses
 * the same, rules/mcr/engine.py's _check_events; what it refuses by the hand's tiles, such as a
 * robbed kong's tile held, it still says itself). */
function mcrEventProblem(event, on, context) {
  const { discard, kong } = context;
  const other = (name) => t("calc.why.not_with", { event: t(`event.${name}`) });
  switch (event) {
    case "replacement":
      if (discard) return t("calc.why.self_draw_only");
      return kong ? "" : t("calc.why.needs_kong");
    case "robbing_kong":
      if (!discard) return t("calc.why.discard_win_only");
      return on.has("last_tile") ? other("last_tile") : "";
    case "last_tile":
      return on.has("robbing_kong") ? other("robbing_kong") : "";
    default:
      return "";
  }
}

/** The profiles whose events the page settles before asking the engine. */
const EVENT_PROBLEMS = { riichi: riichiEventProblem, mcr: mcrEventProblem };

/** A profile's events that cannot go together, or with the hand and the win: disabled and
 * unticked, with the reason beside them. Of two that exclude each other the one ticked first
 * stays. */
function syncEvents(profile) {
  const problemOf = EVENT_PROBLEMS[profile.family];
  if (!problemOf) return;
  const data = new FormData(form);
  const context = {
    discard: data.get("win") === "discard",
    dealer: data.get("seat") === "E",
    claimed: editor.groups.some((group) => group.kind !== "ckong"),
    kong: editor.groups.some((group) => group.kind !== "chow" && group.kind !== "pung"),
    aside: profile.set_aside ? asideCount : null,
    melds: editor.groups.length > 0,
    renhou: (data.get("option:renhou") ?? "off") !== "off",
  };
  const boxes = [...eventsBox.querySelectorAll('input[name="events"]')];
  // Settled in the events' order, so that what one unticks frees or blocks the ones after it.
  for (let pass = 0; pass < 3; pass += 1) {
    let changed = false;
    for (const box of boxes) {
      const on = new Set(boxes.filter((other) => other.checked && other !== box).map((other) => other.value));
      const problem = problemOf(box.value, on, context);
      if (problem && box.checked) {
        box.checked = false;
        changed = true;
      }
      box.disabled = Boolean(problem);
      const why = box.closest(".check").querySelector(".check-why");
      if (why) why.textContent = problem;
    }
    if (!changed) break;
  }
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

/** Choosing a rule set (riichi's preset) sets every option it has a value for: an option the
 * request sets wins over its preset, and the page sends them all. */
function applyPreset(profile, name) {
  const option = profile.options.find((entry) => entry.presets);
  setPreset(optionsBox, option?.presets, name, "option:");
}

/** Whether the hand may hold red fives: a profile with the `red_fives` option, switched on. */
function redFivesOn(profile) {
  if (!profile.options.some((option) => option.name === "red_fives")) return false;
  return optionsBox.querySelector('[name="option:red_fives"]')?.checked === true;
}

/** Whether the hand may hold bonus tiles: a profile that has them, and, where they are an
 * option (mcr's `flowers`), with it switched on. */
function bonusOn(profile) {
  if (profile.bonus_tiles === false) return false;
  if (!profile.options.some((option) => option.name === "flowers")) return true;
  return optionsBox.querySelector('[name="option:flowers"]')?.checked === true;
}

function syncEditor(profile) {
  editor.setProfile({
    sets: profile.sets,
    animals: profile.animals,
    redFives: redFivesOn(profile),
    bonus: bonusOn(profile),
    outOfPlay: profile.out_of_play,
    claimedChows: profile.claimed_chows,
  });
}

function applyProfile(saved = {}) {
  const profile = currentProfile();
  setUnit(profile.unit);
  // The select names the rules; what they are is said beneath, so a phone shows both whole.
  profileAbout.textContent = profileSelect.selectedOptions[0]?.dataset.about ?? "";
  pageTitle.textContent = t("calc.title");
  renderProfileFields(profile, saved);
  renderEvents(profile, saved);
  renderOptions(profile, saved.profile === profile.id ? saved : {});
  syncSeats(profile);
  syncEditor(profile);
  syncWinFields();
}

/** The winds the page offers as the seat, the discarder and the round: the profile's seats
 * (sanma's E, S and W); a choice no longer offered falls back to East. */
function syncSeats(profile) {
  for (const name of ["seat", "discarder", "round"]) {
    const field = form.querySelector(`[data-field="${name}"]`);
    for (const input of field.querySelectorAll("input")) {
      const offered = profile.seats.includes(input.value);
      input.closest("label").hidden = !offered;
      if (!offered && input.checked) {
        input.checked = false;
        field.querySelector('input[value="E"]').checked = true;
      }
    }
  }
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
  const seats = currentProfile().seats;
  const chosen = fromField.querySelector("input:checked");
  if (!chosen || chosen.disabled || !seats.includes(chosen.value)) {
    const next = seats[(seats.indexOf(seat) + 1) % seats.length];
    fromField.querySelector(`input[value="${next}"]`).checked = true;
  }
  renderAside();
  syncEvents(currentProfile());
  renderIndicators();
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
  for (const name of ["dealer_streak", "table_discards", "honba", "riichi_sticks"]) {
    const raw = String(data.get(name) ?? "").trim();
    if (raw && Number.isInteger(Number(raw)) && Number(raw) >= 0) request[name] = Number(raw);
  }
  if (profile.fields.includes("dora")) {
    if (indicators.dora.length) request.dora = [...indicators.dora];
    if (indicators.ura_dora.length && uraOffered()) request.ura_dora = [...indicators.ura_dora];
  }
  if (data.get("liable")) request.liable = data.get("liable");
  if (profile.set_aside && asideCount) request[profile.set_aside.field] = asideCount;
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
    honba: data.get("honba"),
    riichi_sticks: data.get("riichi_sticks"),
    dora: indicators.dora,
    ura_dora: indicators.ura_dora,
    options: readOptions(profile, data),
  };
  if (profile.set_aside) settings[profile.set_aside.field] = asideCount;
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
  // The indicators are the hand's; the honba and the deposits on the table stay for the next.
  indicators.dora = [];
  indicators.ura_dora = [];
  asideCount = 0;
  schedule();
}

// --- The result ----------------------------------------------------------------------------

function showBar(kind, text) {
  bar.hidden = !text;
  bar.classList.remove("good", "bad", "waiting", "short");
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
        showBar(...verdictLine(data));
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
optionsBox.addEventListener("change", (event) => {
  const profile = currentProfile();
  if (event.target.name === "option:preset") applyPreset(profile, event.target.value);
  const editorOptions = ["option:preset", "option:red_fives", "option:flowers"];
  if (editorOptions.includes(event.target.name)) syncEditor(profile);
});
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
