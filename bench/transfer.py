"""Transfer sizes: the bytes a phone downloads to open a long table, as the server sends them
to a browser (`Accept-Encoding: gzip, deflate, br`) and without compression.

    .venv/bin/python bench/transfer.py                   # a 48-hand table (a long evening)
    .venv/bin/python bench/transfer.py --hands 2000 --json

Starts `companion serve` on 127.0.0.1 (a temporary SQLite ledger, or `--db URL`) with a table of
`--hands` quick-entry wins, then asks for its page, its board (what every phone reloads on each
event), its API history, and every style and script the page loads (the stylesheets and
scripts it names and the modules they import), each twice: once as a browser asks, once
asking for no encoding. Prints each one's bytes on the wire both ways, and the totals.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from big_table import build_table
from load import free_port, start_server

BROWSER = "gzip, deflate, br"
STATIC_REF = re.compile(r'(?:href|src)="(/static/[^"?#]+)')
IMPORT = re.compile(r'(?:^|\s)(?:import|export)\s[^;]*?from\s+"(\./[^"]+)"|import\("(\./[^"]+)"\)')


def fetch(port: int, path: str, encoding: str) -> tuple[int, bytes, str]:
    """(status, body as sent, content-encoding) of one GET asking for `encoding`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"accept-encoding": encoding})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body, response.getheader("content-encoding") or "identity"


def assets(port: int, page: str) -> list[str]:
    """The static files a page loads: the ones it names, then the modules the scripts import."""
    found = list(dict.fromkeys(STATIC_REF.findall(page)))
    queue = [path for path in found if path.endswith(".js")]
    while queue:
        script = queue.pop()
        _, body, _ = fetch(port, script, "identity")
        folder = script.rsplit("/", 1)[0]
        for match in IMPORT.finditer(body.decode()):
            module = f"{folder}/{(match[1] or match[2])[2:]}"
            if module not in found:
                found.append(module)
                queue.append(module)
    return found


def run(hands: int, db_url: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        url = db_url or f"sqlite:///{Path(folder) / 'transfer.sqlite3'}"
        table_id = build_table(url, hands)
        port = free_port()
        server = start_server(port, url)
        try:
            _, page, _ = fetch(port, f"/t/{table_id}?lang=en", "identity")
            paths = [
                f"/t/{table_id}?lang=en",
                f"/t/{table_id}/board?lang=en",
                f"/api/tables/{table_id}/history",
                *assets(port, page.decode()),
            ]
            rows = []
            for path in paths:
                status, plain, _ = fetch(port, path, "identity")
                _, sent, encoding = fetch(port, path, BROWSER)
                assert status == 200, (path, status)
                rows.append(
                    {"path": path, "plain": len(plain), "sent": len(sent), "encoding": encoding}
                )
        finally:
            server.terminate()
            server.wait(timeout=10)
    statics = [row for row in rows if row["path"].startswith("/static/")]
    return {
        "hands": hands,
        "files": rows,
        "page": rows[0],
        "board": rows[1],
        "static_files": len(statics),
        "static_plain": sum(row["plain"] for row in statics),
        "static_sent": sum(row["sent"] for row in statics),
        "page_and_static_plain": rows[0]["plain"] + sum(row["plain"] for row in statics),
        "page_and_static_sent": rows[0]["sent"] + sum(row["sent"] for row in statics),
    }


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=48)
    parser.add_argument("--db", help="a database URL (default: a temporary SQLite file)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = run(args.hands, args.db)
    if args.json:
        print(json.dumps(figures))
        return
    width = max(len(row["path"]) for row in figures["files"])
    for row in figures["files"]:
        print(
            f"{row['path']:<{width}}  {kb(row['plain']):>9}  sent {kb(row['sent']):>9}  "
            f"({row['encoding']})"
        )
    print(
        f"{figures['hands']} hands: the table page {kb(figures['page']['plain'])}, sent "
        f"{kb(figures['page']['sent'])}; the board {kb(figures['board']['plain'])}, sent "
        f"{kb(figures['board']['sent'])}; page and its {figures['static_files']} static files "
        f"{kb(figures['page_and_static_plain'])}, sent {kb(figures['page_and_static_sent'])}"
    )


if __name__ == "__main__":
    sys.exit(main())
