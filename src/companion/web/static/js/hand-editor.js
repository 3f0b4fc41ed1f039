// The hand editor component (templates/components/hand_editor.html): builds a hand by tapping
// tiles. Concealed tiles keep the order they were added in (the last is the winning tile);
// declared groups and bonus tiles sit beside them. Emits "change" whenever the hand changes.
import { t, tileName } from "./i18n.js";
import { el, nextTile, tileOrder, tileSvg } from "./tiles.js";

// An added kong ("akong": a drawn tile added to a declared pung) is drawn like an exposed kong.
const GROUP_KINDS = ["chow", "pung", "kong", "akong", "ckong"];
const GROUP_SIZE = { chow: 3, pung: 3, kong: 4, akong: 4, ckong: 4 };
const KONGS = new Set(["kong", "akong", "ckong"]);
const TILE = /^([0-9][mps]|[1-7]z)$/;
const RED_FIVE = /^0[mps]$/;
const BONUS = /^([1-8]f|[1-4]a)$/;
const COPIES = 4;

/** The plain tile of a red five (`0m` is `5m`), else the tile itself. */
function plain(tile) {
  return RED_FIVE.test(tile) ? `5${tile[1]}` : tile;
}

/** The tiles of a declared group {kind, tile}; a group from a red five (riichi's `0m`) holds
 * that red five first and plain fives after it (a chow from it is 5-6-7). */
export function groupTiles(group) {
  const base = plain(group.tile);
  if (group.kind === "chow") return [group.tile, nextTile(base, 1), nextTile(base, 2)];
  return [group.tile, ...Array(GROUP_SIZE[group.kind] - 1).fill(base)];
}

/** A declared group as a request writes it: `pung 5z`, or every tile where it holds a red
 * five (`pung 055p`). */
function meldText(group) {
  if (!RED_FIVE.test(group.tile)) return `${group.kind} ${group.tile}`;
  const tiles = groupTiles(group);
  return `${group.kind} ${tiles.map((tile) => tile[0]).join("")}${group.tile[1]}`;
}

export class HandEditor extends EventTarget {
  /**
   * @param {HTMLElement} root the component's element ([data-hand-editor])
   * @param {{storageKey?: string}} options storageKey keeps the hand in sessionStorage
   */
  constructor(root, { storageKey = "" } = {}) {
    super();
    this.root = root;
    this.storageKey = storageKey;
    this.nextId = 1;
    this.concealed = []; // [{id, tile}] in the order added
    this.groups = []; // [{id, kind, tile}]
    this.bonus = []; // ["1f", ...]
    this.log = []; // ids and "bonus:1f" entries, for undo
    this.sets = 4;
    this.animals = true;
    this.redFives = false;
    this.outOfPlay = new Set(); // tiles the profile's set leaves out (sanma's 2m-8m)
    this.claimedChows = true;
    this.aside = { tile: "", count: 0 }; // tiles set aside, not in the hand (sanma's kita)
    this.handEl = root.querySelector("[data-hand]");
    this.countEl = root.querySelector("[data-count]");
    this.undoButton = root.querySelector("[data-undo]");
    this.clearButton = root.querySelector("[data-clear]");
    this.tileButtons = [...root.querySelectorAll("[data-tile]")];
    this.redRow = root.querySelector("[data-red-row]");
    this.bonusButtons = [...root.querySelectorAll("[data-bonus]")];
    this.modeInputs = [...root.querySelectorAll("[data-mode]")];
    this.chowMode = this.modeInputs.find((input) => input.value === "chow")?.closest("label");
    this.bonusCount = root.querySelector("[data-bonus-count]");
    this.handEl.setAttribute("tabindex", "-1");

    root.querySelector("[data-picker]").addEventListener("click", (event) => {
      const button = event.target.closest("[data-tile]");
      if (button && !button.disabled) this.add(button.dataset.tile);
    });
    root.querySelector("[data-bonus-panel]").addEventListener("click", (event) => {
      const button = event.target.closest("[data-bonus]");
      if (button && !button.disabled) this.toggleBonus(button.dataset.bonus);
    });
    this.handEl.addEventListener("click", (event) => {
      const button = event.target.closest("[data-remove]");
      if (button) this.remove(Number(button.dataset.remove), event.detail === 0);
    });
    for (const input of this.modeInputs) input.addEventListener("change", () => this.render());
    this.undoButton.addEventListener("click", () => this.undo());
    this.clearButton.addEventListener("click", () => this.clear());
    this.restore();
    this.render();
  }

  setMode(mode) {
    for (const input of this.modeInputs) input.checked = input.value === mode;
  }

  get mode() {
    return this.modeInputs.find((input) => input.checked)?.value ?? "tile";
  }

  /** Tiles used per kind, declared groups included. */
  counts() {
    const counts = new Map();
    const add = (tile) => counts.set(tile, (counts.get(tile) ?? 0) + 1);
    for (const item of this.concealed) add(item.tile);
    for (const group of this.groups) groupTiles(group).forEach(add);
    return counts;
  }

  /** How many of a tile the set holds: four, but where red fives are played one red five
   * of each suit and three plain fives; none of a tile out of play; less those set aside. */
  copies(tile) {
    if (this.outOfPlay.has(plain(tile))) return 0;
    if (RED_FIVE.test(tile)) return this.redFives ? 1 : 0;
    const aside = tile === this.aside.tile ? this.aside.count : 0;
    return (this.redFives && tile[0] === "5" && tile[1] !== "z" ? COPIES - 1 : COPIES) - aside;
  }

  /** Whether a group holds a tile out of play, or is a chow where none can be claimed. */
  outOfSet(group) {
    if (group.kind === "chow" && !this.claimedChows) return true;
    return groupTiles(group).some((tile) => this.outOfPlay.has(plain(tile)));
  }

  /** Tiles set aside beside the hand (sanma's North, `kita`): they count among the four of
   * their kind, so the picker offers fewer of it. */
  setAside(tile, count) {
    this.aside = { tile, count };
    this.render();
  }

  /** A kong of fives where red fives are played holds the red one. */
  groupStart(tile, mode) {
    return this.redFives && KONGS.has(mode) && tile[0] === "5" && tile[1] !== "z" ? `0${tile[1]}` : tile;
  }

  canAdd(tile, mode = this.mode, counts = this.counts()) {
    const used = (kind) => counts.get(kind) ?? 0;
    // Never past the hand's size: a group takes three places (a kong's fourth tile is extra).
    if (this.structural() + (mode === "tile" ? 1 : 3) > this.needed) return false;
    if (RED_FIVE.test(tile) && !this.redFives) return false;
    if (mode === "tile") return used(tile) < this.copies(tile);
    if (mode === "chow") {
      if (!this.claimedChows) return false;
      if (tile[1] === "z" || Number(plain(tile)[0]) > 7) return false;
    } else {
      tile = this.groupStart(tile, mode);
    }
    const need = new Map();
    for (const kind of groupTiles({ kind: mode, tile })) need.set(kind, (need.get(kind) ?? 0) + 1);
    return [...need].every(([kind, n]) => used(kind) + n <= this.copies(kind));
  }

  /** Add a tile in the current mode: one concealed tile, or a declared group starting at it. */
  add(tile, mode = this.mode) {
    if (!TILE.test(tile) || !this.canAdd(tile, mode)) return;
    const id = this.nextId++;
    if (mode === "tile") this.concealed.push({ id, tile });
    else this.groups.push({ id, kind: mode, tile: this.groupStart(tile, mode) });
    this.log.push(id);
    // A group is declared one at a time: the next tap adds a single tile again.
    if (mode !== "tile") this.setMode("tile");
    this.changed();
  }

  /** Add a concealed tile whatever the mode (a wait picked from the result). */
  addWinningTile(tile) {
    this.add(tile, "tile");
  }

  toggleBonus(tile) {
    if (!BONUS.test(tile)) return;
    const index = this.bonus.indexOf(tile);
    if (index >= 0) {
      this.bonus.splice(index, 1);
    } else {
      this.bonus.push(tile);
      this.log.push(`bonus:${tile}`);
    }
    this.changed();
  }

  remove(id, byKeyboard = false) {
    this.concealed = this.concealed.filter((item) => item.id !== id);
    this.groups = this.groups.filter((group) => group.id !== id);
    this.changed();
    if (byKeyboard) {
      const next = this.handEl.querySelector("button") ?? this.handEl;
      next.focus();
    }
  }

  undo() {
    while (this.log.length) {
      const entry = this.log.pop();
      if (typeof entry === "string") {
        const tile = entry.slice("bonus:".length);
        if (this.bonus.includes(tile)) {
          this.bonus = this.bonus.filter((item) => item !== tile);
          return this.changed();
        }
        continue;
      }
      const before = this.concealed.length + this.groups.length;
      this.concealed = this.concealed.filter((item) => item.id !== entry);
      this.groups = this.groups.filter((group) => group.id !== entry);
      if (this.concealed.length + this.groups.length !== before) return this.changed();
    }
  }

  clear() {
    this.concealed = [];
    this.groups = [];
    this.bonus = [];
    this.log = [];
    this.changed();
  }

  /** The profile's shape: how many sets, whether animal tiles exist in it, whether its red
   * fives are played (riichi's `0m 0p 0s`; where they are not, a red five becomes a plain one),
   * whether it has bonus tiles at all, the tiles its set leaves out (hidden from the picker, and
   * taken out of the hand) and whether a chow may be claimed. */
  setProfile({ sets, animals, redFives = false, bonus = true, outOfPlay = [], claimedChows = true }) {
    this.sets = sets;
    this.animals = animals;
    this.redFives = redFives;
    this.outOfPlay = new Set(outOfPlay);
    this.claimedChows = claimedChows;
    for (const button of this.tileButtons) button.hidden = this.outOfPlay.has(plain(button.dataset.tile));
    if (this.chowMode) this.chowMode.hidden = !claimedChows;
    if (!claimedChows && this.mode === "chow") this.setMode("tile");
    for (const row of this.root.querySelectorAll('[data-bonus-row="a"]')) row.hidden = !animals;
    // The panel is named for what it offers: "Flowers and seasons" where there are no animals.
    for (const title of this.root.querySelectorAll("[data-bonus-title]")) {
      title.hidden = (title.dataset.bonusTitle === "animals") !== Boolean(animals);
    }
    const panel = this.root.querySelector("[data-bonus-panel]");
    if (panel) panel.hidden = !bonus;
    if (this.redRow) this.redRow.hidden = !redFives;
    let changed = false;
    if ((!animals || !bonus) && this.bonus.some((tile) => !bonus || tile.endsWith("a"))) {
      this.bonus = bonus ? this.bonus.filter((tile) => !tile.endsWith("a")) : [];
      changed = true;
    }
    const kept = this.concealed.filter((item) => !this.outOfPlay.has(plain(item.tile)));
    const keptGroups = this.groups.filter((group) => !this.outOfSet(group));
    if (kept.length !== this.concealed.length || keptGroups.length !== this.groups.length) {
      this.concealed = kept;
      this.groups = keptGroups;
      changed = true;
    }
    if (!redFives) {
      for (const item of [...this.concealed, ...this.groups]) {
        if (RED_FIVE.test(item.tile)) {
          item.tile = plain(item.tile);
          changed = true;
        }
      }
    }
    if (changed) this.changed();
    else this.render();
  }

  /** Structural tiles: concealed playing tiles, three for each declared group. */
  structural() {
    return this.concealed.length + 3 * this.groups.length;
  }

  get needed() {
    return 3 * this.sets + 2;
  }

  isEmpty() {
    return !this.concealed.length && !this.groups.length && !this.bonus.length;
  }

  /** The hand's part of a scoring request. */
  toRequest() {
    const request = {};
    if (this.concealed.length) request.hand = this.concealed.map((item) => item.tile).join("");
    if (this.groups.length) request.melds = this.groups.map(meldText);
    if (this.bonus.length) request.bonus = this.bonus.join("");
    return request;
  }

  changed() {
    this.render();
    this.save();
    this.dispatchEvent(new Event("change"));
  }

  save() {
    if (!this.storageKey) return;
    const state = {
      concealed: this.concealed.map((item) => item.tile),
      groups: this.groups.map(({ kind, tile }) => ({ kind, tile })),
      bonus: this.bonus,
    };
    try {
      sessionStorage.setItem(this.storageKey, JSON.stringify(state));
    } catch {
      // Storage may be off (private browsing); the hand just is not kept.
    }
  }

  restore() {
    if (!this.storageKey) return;
    let state;
    try {
      state = JSON.parse(sessionStorage.getItem(this.storageKey) ?? "null");
    } catch {
      return;
    }
    if (!state || typeof state !== "object") return;
    for (const tile of Array.isArray(state.concealed) ? state.concealed : []) {
      if (TILE.test(tile)) this.concealed.push({ id: this.nextId++, tile });
    }
    for (const group of Array.isArray(state.groups) ? state.groups : []) {
      if (group && GROUP_KINDS.includes(group.kind) && TILE.test(group.tile)) {
        this.groups.push({ id: this.nextId++, kind: group.kind, tile: group.tile });
      }
    }
    for (const tile of Array.isArray(state.bonus) ? state.bonus : []) {
      if (BONUS.test(tile) && !this.bonus.includes(tile)) this.bonus.push(tile);
    }
    this.log = [...this.concealed, ...this.groups].map((item) => item.id);
  }

  render() {
    this.renderHand();
    const counts = this.counts();
    const mode = this.mode;
    for (const button of this.tileButtons) {
      const tile = button.dataset.tile;
      const used = counts.get(tile) ?? 0;
      button.disabled = !this.canAdd(tile, mode, counts);
      button.querySelector("[data-badge]").textContent = used ? String(used) : "";
      button.setAttribute(
        "aria-label",
        used ? t("calc.tile_in_use", { name: tileName(tile), count: used }) : tileName(tile),
      );
    }
    for (const button of this.bonusButtons) {
      button.setAttribute("aria-pressed", String(this.bonus.includes(button.dataset.bonus)));
    }
    if (this.bonusCount) this.bonusCount.textContent = this.bonus.length ? `(${this.bonus.length})` : "";
    const count = this.structural();
    this.countEl.textContent = t("calc.tile_count", { count, needed: this.needed });
    this.countEl.classList.toggle("complete", count === this.needed);
    const empty = this.isEmpty();
    this.undoButton.disabled = empty;
    this.clearButton.disabled = empty;
  }

  renderHand() {
    const parts = [];
    for (const group of this.groups) {
      const name = `${t(`meld.${group.kind}`)} ${tileName(group.tile)}`;
      const wrapper = el("div", "hand-group");
      wrapper.append(el("span", "hand-group-label", t(`meld.${group.kind}`)));
      const button = el("button", "group-button");
      button.type = "button";
      button.dataset.remove = String(group.id);
      button.setAttribute("aria-label", t("calc.remove", { name }));
      const tiles = groupTiles(group);
      tiles.forEach((tile, index) => {
        const hidden = group.kind === "ckong" && (index === 0 || index === tiles.length - 1);
        button.append(tileSvg(hidden ? "back" : tile));
      });
      wrapper.append(button);
      parts.push(wrapper);
    }
    const winning = this.concealed.at(-1);
    const others = this.concealed
      .slice(0, -1)
      .sort((a, b) => tileOrder(a.tile) - tileOrder(b.tile) || a.id - b.id);
    if (others.length) {
      const wrapper = el("div", "hand-group");
      wrapper.append(el("span", "hand-group-label", "\u00a0"));
      const row = el("div", "concealed-tiles");
      for (const item of others) row.append(this.tileButton(item));
      wrapper.append(row);
      parts.push(wrapper);
    }
    if (winning) {
      const wrapper = el("div", "hand-group winning-tile");
      wrapper.append(el("span", "hand-group-label", t("calc.winning_tile")));
      wrapper.append(this.tileButton(winning));
      parts.push(wrapper);
    }
    if (this.bonus.length) {
      const wrapper = el("div", "hand-group");
      wrapper.append(el("span", "hand-group-label", t("suit.f")));
      const row = el("div", "concealed-tiles");
      for (const tile of this.bonus) {
        const button = el("button", "tile-button");
        button.type = "button";
        button.setAttribute("aria-label", t("calc.remove", { name: tileName(tile) }));
        button.append(tileSvg(tile));
        button.addEventListener("click", () => this.toggleBonus(tile));
        row.append(button);
      }
      wrapper.append(row);
      parts.push(wrapper);
    }
    if (!parts.length) parts.push(el("p", "empty", t("calc.empty_hand")));
    this.handEl.replaceChildren(...parts);
  }

  tileButton(item) {
    const button = el("button", "tile-button");
    button.type = "button";
    button.dataset.remove = String(item.id);
    button.setAttribute("aria-label", t("calc.remove", { name: tileName(item.tile) }));
    button.append(tileSvg(item.tile));
    return button;
  }
}
