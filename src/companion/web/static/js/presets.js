// A rule set (riichi's `preset`) chosen in a form sets every option it has a value for, so
// that what the form shows is what is played. One code for the calculator and the create
// forms of /tables and /events: each names its option fields `${prefix}${option}`.

/** Set the fields in `container` to the values rule set `name` gives them (`presets`: each
 * rule set's option values, as the server's profile data holds them). */
export function applyPreset(container, presets, name, prefix) {
  const values = presets?.[name];
  if (!values) return;
  for (const [option, value] of Object.entries(values)) {
    const input = container.querySelector(`[name="${prefix}${option}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = value === true;
    else input.value = String(value);
  }
}
