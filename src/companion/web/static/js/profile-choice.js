import { applyPreset } from "./presets.js";

// The create forms (a table's, an event's): the chosen profile's options and length fields only.
// A profile whose rules say how long its game is has a line saying so (the server writes one for
// each such profile): the planned hands and rounds go, disabled, so none is sent. The table
// form's player fields follow the chosen profile's seats.

/** Show `form`'s fields for the profile chosen in `select`, now and whenever it changes; a rule
 * set chosen sets the options it has values for, as the calculator's does. */
export function followProfile(form, select) {
  form.addEventListener("change", (event) => {
    const chosen = event.target;
    if (!chosen.matches?.("select[data-presets]")) return;
    const fieldset = chosen.closest("[data-profile-options]");
    applyPreset(fieldset, JSON.parse(chosen.dataset.presets), chosen.value, chosen.dataset.prefix);
  });
  const lengthFields = form.querySelector("#length-fields");
  function show() {
    for (const fieldset of form.querySelectorAll("[data-profile-options]")) {
      const chosen = fieldset.dataset.profileOptions === select.value;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
    }
    let fixed = false;
    for (const line of form.querySelectorAll("[data-length-line]")) {
      line.hidden = line.dataset.lengthLine !== select.value;
      fixed ||= !line.hidden;
    }
    lengthFields.hidden = fixed;
    lengthFields.disabled = fixed;
    // A player's field for each of the rule set's seats (sanma seats three): a seat it has
    // not goes, disabled, so that no name is sent for it.
    const seats = (select.selectedOptions[0]?.dataset.seats ?? "").split(" ");
    for (const field of form.querySelectorAll("[data-seat]")) {
      const seated = seats.includes(field.dataset.seat);
      field.hidden = !seated;
      for (const input of field.querySelectorAll("input")) input.disabled = !seated;
    }
    for (const hint of form.querySelectorAll("[data-seat-count]")) {
      hint.hidden = Number(hint.dataset.seatCount) !== seats.length;
    }
  }
  select.addEventListener("change", show);
  show();
}

/** One creation per tap: a second tap while the first is on its way does nothing. */
export function guardSubmit(form, submit) {
  form.addEventListener("submit", () => {
    window.setTimeout(() => {
      submit.disabled = true;
    }, 0);
  });
  window.addEventListener("pageshow", () => {
    submit.disabled = false;
  });
}
