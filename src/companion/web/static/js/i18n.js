// The page's data block (messages, names, profiles, URLs), written by the server as JSON.
const element = document.getElementById("page-data");

export const pageData = element
  ? JSON.parse(element.textContent)
  : { lang: "en", messages: {}, patterns: {}, tiles: {}, profiles: [], api: {}, tilesUrl: "" };

let unit = "tai";

/** Count hands in `tai` or `faan` (the profile's unit): messages then use their `key@faan`
 * form where the catalogue has one. */
export function setUnit(value) {
  unit = value || "tai";
}

/** A catalogue message with its {fields} filled; the key itself when unknown. */
export function t(key, fields = {}) {
  const text = pageData.messages[`${key}@${unit}`] ?? pageData.messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** A message if the catalogue has it, else the fallback. */
export function tOr(key, fallback) {
  return key in pageData.messages ? t(key) : fallback;
}

export function tileName(mpsz) {
  return pageData.tiles[mpsz] ?? mpsz;
}

/** A pattern's name in the page language: the profile's own name where it has one (`mcr:all_pungs`
 * is 碰碰和, where sg's all_pungs is 对对胡), else the shared one, else the engine's English name. */
export function patternName(id, fallback, profile) {
  return (profile && pageData.patterns[`${profile}:${id}`]) ?? pageData.patterns[id] ?? fallback ?? id;
}
