// The events page: the create form shows the chosen profile's options and length fields only,
// and a list of players can be read from a text file, one a line, into the players' box.
import { followProfile, guardSubmit } from "./profile-choice.js";

const form = document.getElementById("create-form");
const players = document.getElementById("event-players");
const fileLabel = document.getElementById("players-file-label");
const file = document.getElementById("players-file");

followProfile(form, document.getElementById("create-profile"));
guardSubmit(form, document.getElementById("create-submit"));
// Only with the script: the file is read here and never sent as a file.
fileLabel.hidden = false;
file.addEventListener("change", async () => {
  const chosen = file.files?.[0];
  if (!chosen) return;
  const names = (await chosen.text())
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  players.value = names.join("\n");
  file.value = "";
});
document.body.dataset.ready = "true";
