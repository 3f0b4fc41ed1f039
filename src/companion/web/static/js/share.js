// Sharing a table: the read-only link's QR code comes from the server (/t/{id}/qr.svg); the write
// link's is drawn here, on the device that holds the token, so the token never travels to the
// server in a URL. The Share button uses the Web Share API where there is one, else copies.
import { SVG } from "./tiles.js";
import { encode } from "./vendor/uqr.js";

/** `text` as a QR code: an <svg> of dark modules on white, with a four-module quiet zone. */
export function qrSvg(text, label) {
  const { data, size } = encode(text, { ecc: "M", border: 4 });
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(SVG, "rect");
  back.setAttribute("width", String(size));
  back.setAttribute("height", String(size));
  back.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG, "path");
  let d = "";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}

/** Share `url` (Web Share API), else copy it; answers "shared", "copied" or "manual". */
export async function shareLink({ url, title, text }, input) {
  if (navigator.share) {
    try {
      await navigator.share({ url, title, text });
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
    }
  }
  return copyText(url, input);
}

/** Copy `text`, else select it in `input` for the player to copy; answers "copied" or "manual". */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    // No clipboard outside a secure context (http on the local network): select it instead.
    input?.focus();
    input?.select();
    return "manual";
  }
}
