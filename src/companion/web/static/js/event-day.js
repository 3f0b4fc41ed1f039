// The organiser's actions of the day (issue 39) on /e/{id}/organiser: what each form sends to
// the JSON API (/api/events/{id}/...). event-organiser.js sends it with the token, as its own.

/** The request of a day's action, or null for the organiser's other forms. */
export function dayRequest(form, api) {
  const data = Object.fromEntries(new FormData(form));
  const round = Number(form.dataset.round);
  const by = data.by ?? "";
  switch (form.dataset.action) {
    case "extend":
      return { url: `${api}/timers/extend`, body: { round, minutes: Number(data.minutes), by } };
    case "pause":
    case "resume":
      return { url: `${api}/timers/${form.dataset.action}`, body: { round, by } };
    case "rules":
      return {
        url: `${api}/rules`,
        body: { time_up_hands: Number(data.time_up_hands), void_score: data.void_score.trim(), by },
      };
    case "swap":
      return {
        url: `${api}/seats`,
        body: { round, table: Number(data.table), players: [data.first, data.second], by },
      };
    case "end":
      return {
        url: `${api}/endings`,
        body: { round, table: Number(data.table), mode: data.mode, reason: data.reason, by },
      };
    case "reopen":
      return { url: `${api}/endings/reopen`, body: { round, table: Number(form.dataset.table), by } };
    default:
      return null;
  }
}
