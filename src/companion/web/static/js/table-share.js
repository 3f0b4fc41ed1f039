// A table's page: its links: the read-only link and, on a device that holds the token, the
// write link with its QR code (drawn here, so the token never travels to the server in a URL);
// the Share and Copy buttons.
import { t } from "./i18n.js";
import { copyText, qrSvg, shareLink } from "./share.js";
import { session, table } from "./table-context.js";

// The links' address, as the server chose it for the other phones (its LAN address, or
// --public-url: companion/web/table_share.py), else the one this page was opened on.
const shareBase = document.getElementById("share")?.dataset.shareBase || location.origin;

export function linkFor(withToken) {
  const base = `${shareBase}/t/${table.id}`;
  return withToken ? `${base}#token=${encodeURIComponent(session.token)}` : base;
}

export function drawWriteQr() {
  const box = document.getElementById("write-qr");
  if (!session.token) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(qrSvg(linkFor(true), box.dataset.label));
}

export async function shareTable(which) {
  const withToken = which === "write";
  const input = document.getElementById(withToken ? "write-link" : "read-link");
  const verdict = await shareLink(
    {
      url: linkFor(withToken),
      title: document.title,
      text: t(withToken ? "table.share_write_text" : "table.share_read_text"),
    },
    input,
  );
  const status = document.getElementById("copy-status");
  if (verdict === "copied") status.textContent = t("table.copied");
  else if (verdict === "manual") status.textContent = t("table.copy_manual");
}

export async function copyLink(button) {
  const input = document.getElementById(button.dataset.copy);
  const status = document.getElementById("copy-status");
  const verdict = await copyText(input.value, input);
  status.textContent = t(verdict === "copied" ? "table.copied" : "table.copy_manual");
}
