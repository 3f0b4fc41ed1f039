// A table's page: several winners on one discard, where the profile allows it (`tw`): who won,
// each winner's agreed tai, and carrying the choice over when the player switches between one
// winner and several.
import { t } from "./i18n.js";
import { form, severalToggle } from "./table-context.js";
import { checked, chosenTai, playerName, setChecked, setTai, validTai } from "./table-fields.js";

/** Several winners on one discard: only where the profile allows it (`tw`). */
export function several() {
  return Boolean(severalToggle?.checked);
}

export function chosenWinners() {
  return [...form.querySelectorAll('input[name="winners"]:checked')].map((input) => input.value);
}

/** One discard, several winners (`tw`), each with their agreed tai. */
export function buildSeveral() {
  const winners = chosenWinners();
  if (!winners.length) return { error: t("table.need_winners"), field: "winners" };
  const from = checked("from");
  if (from === null || from === "self") return { error: t("table.need_discarder"), field: "from" };
  const listed = [];
  for (const winner of winners) {
    const tai = chosenTai(`tai_${winner}`);
    if (!validTai(tai)) {
      return { error: t("table.need_tai_for", { name: playerName(winner) }), field: `tai_${winner}` };
    }
    listed.push({ name: playerName(winner), tai });
  }
  return { entry: { kind: "win", from: playerName(from), winners: listed } };
}

/** Switching between one winner and several keeps who was chosen, and their tai. */
export function carryWinners() {
  if (several()) {
    const winner = checked("winner");
    if (winner === null) return;
    const box = form.querySelector(`input[name="winners"][value="${winner}"]`);
    if (box) box.checked = true;
    const tai = chosenTai();
    if (validTai(tai) && chosenTai(`tai_${winner}`) === null) setTai(`tai_${winner}`, tai);
    return;
  }
  const [first] = chosenWinners();
  if (first === undefined || checked("winner") !== null) return;
  setChecked("winner", first);
  const tai = chosenTai(`tai_${first}`);
  if (validTai(tai) && chosenTai() === null) setTai("tai", tai);
}
