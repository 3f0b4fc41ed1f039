// Tiles on the page: drawing one from the sprite, reading MPSZ, ordering.
import { pageData, tileName } from "./i18n.js";

/** The SVG namespace, for createElementNS. */
export const SVG = "http://www.w3.org/2000/svg";

/** The seat winds in turn order, East first. */
export const SEATS = ["E", "S", "W", "N"];
const SUIT_ORDER = "mpszfa";
const MPSZ_RUN = /^(\d+[mpszfa])+$/;

/** An element with a class and text. */
export function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** One tile drawn from the sprite; with a label it is an image, else decoration. */
export function tileSvg(mpsz, label = "") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "tile");
  svg.setAttribute("viewBox", "0 0 60 80");
  svg.setAttribute("focusable", "false");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${pageData.tilesUrl}#t-${mpsz}`);
  svg.append(use);
  return svg;
}

/** "123m55z" -> ["1m", "2m", "3m", "5z", "5z"]. */
export function expandTiles(text) {
  const tiles = [];
  let digits = "";
  for (const char of text) {
    if (char >= "0" && char <= "9") {
      digits += char;
    } else if (SUIT_ORDER.includes(char)) {
      for (const digit of digits) tiles.push(digit + char);
      digits = "";
    }
  }
  return tiles;
}

export function isTileRun(text) {
  return MPSZ_RUN.test(text);
}

export function tileOrder(mpsz) {
  // A red five (riichi's `0p`) sorts as a five, after the plain ones.
  const rank = mpsz[0] === "0" ? 5.5 : Number(mpsz[0]);
  return SUIT_ORDER.indexOf(mpsz[1]) * 10 + rank;
}

export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => tileOrder(a) - tileOrder(b));
}

/** The tile `step` ranks above (for chows). */
export function nextTile(mpsz, step) {
  return `${Number(mpsz[0]) + step}${mpsz[1]}`;
}

/** A small run of tiles ("777z", "1f") as one labelled group. */
export function miniGroup(text, winning = false) {
  const tiles = expandTiles(text);
  const group = el("span", winning ? "mini-group winning" : "mini-group");
  group.setAttribute("role", "img");
  group.setAttribute("aria-label", tiles.map(tileName).join(", "));
  group.dataset.group = text;
  for (const tile of tiles) group.append(tileSvg(tile));
  return group;
}
