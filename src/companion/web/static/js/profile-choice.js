import { applyPreset } from "./presets.js";

// The create forms (a table's, an event's): the chosen profile's options and length fields only.
// A profile whose rules say how long its game is has a line saying so (the server writes one for
// each such profile): the planned hands and rounds go, disabled, so none is sent.

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
