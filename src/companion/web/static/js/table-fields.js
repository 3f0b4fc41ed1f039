// A table's page: the record form's fields one at a time: its radio groups, the tai (quick
// buttons or the number beside them), the table's discards, and a player's name and seat.
import { form, session, table, tableDiscards } from "./table-context.js";

export function checked(name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
}

export function setChecked(name, value) {
  for (const input of form.querySelectorAll(`input[name="${name}"]`)) {
    input.checked = input.value === value;
  }
}

export function focusField(name) {
  const target = form.querySelector(`input[name="${name}"]:not(:disabled)`);
  target?.focus();
}

export function playerName(index) {
  return table.players[Number(index)];
}

export function seatOf(index) {
  return session.state.players[Number(index)].seat;
}

/** The tai from quick buttons named `name`, or the number field beside them. */
export function chosenTai(name = "tai") {
  const other = form.querySelector(`input[data-other-for="${name}"]`)?.value.trim();
  if (other) return Number(other);
  const value = checked(name);
  return value === null ? null : Number(value);
}

export function validTai(tai) {
  return tai !== null && Number.isInteger(tai) && tai >= 0;
}

export function setTai(name, tai) {
  const button = form.querySelector(`input[name="${name}"][value="${CSS.escape(String(tai))}"]`);
  if (button) button.checked = true;
  else {
    const other = form.querySelector(`input[data-other-for="${name}"]`);
    if (other) other.value = String(tai);
  }
}

/** The whole hand's count of table discards: null when blank, NaN when not a whole number. */
export function chosenDiscards() {
  const text = tableDiscards?.value.trim() ?? "";
  if (!text) return null;
  const count = Number(text);
  return Number.isInteger(count) && count >= 0 ? count : Number.NaN;
}
