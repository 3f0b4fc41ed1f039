"""A club made on the web and organised there: the create form (a club made, its organiser's
link in the redirect's fragment, a refusal said on the form in the reader's language), the
organiser's part of the page for the club's token only, and a private club whose leaderboard,
players' pages and exports need the token (403 with a message without it, `private` answers
with it), made at creation and changed by the organiser."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from companion.web import i18n

RIICHI = {"preset": "tenhou", "length": "tonpuusen"}
LOCATION = re.compile(r"^/c/(?P<id>[a-z0-9]+)/organise#token=(?P<token>[A-Za-z0-9_-]+)&new=1$")


def _csrf(client: TestClient) -> str:
    assert client.get("/clubs").status_code == 200
    token = client.cookies.get("companion_csrf")
    assert isinstance(token, str) and token
    return token


def _make(client: TestClient, **fields: str) -> tuple[str, dict[str, str]]:
    form = {"csrf_token": _csrf(client), "name": "Thursday Riichi", **fields}
    made = client.post("/clubs", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    found = LOCATION.match(made.headers["location"])
    assert found, made.headers["location"]
    assert made.headers["cache-control"] == "no-store"
    return found["id"], {"Authorization": f"Bearer {found['token']}"}


def test_the_create_form_makes_a_club(client: TestClient) -> None:
    page = client.get("/clubs?lang=en")
    assert 'action="/clubs"' in page.text and 'name="private"' in page.text
    assert '<a href="/clubs"' in page.text  # the header's link
    club, token = _make(client, rating="tenhou")
    made = client.get(f"/api/clubs/{club}", headers=token).json()
    assert (made["name"], made["rating"], made["private"], made["organiser"]) == (
        "Thursday Riichi",
        "tenhou",
        False,
        True,
    )
    # The organiser's page holds nothing of the organiser's: its script fetches that part.
    shell = client.get(f"/c/{club}/organise")
    assert shell.status_code == 200 and "data-roster" not in shell.text
    assert '"panel": "/c/' + club + '/organise/panel"' in shell.text


def test_a_refused_club_is_said_on_the_form_in_the_readers_language(client: TestClient) -> None:
    form = {"csrf_token": _csrf(client), "name": "n" * 61, "private": "on"}
    refused = client.post("/clubs?lang=zh-Hans", data=form)
    assert refused.status_code == 422
    said = re.search(
        r'id="create-error">\s*<p><strong>[^<]*</strong></p>\s*<p>([^<]*)</p>', refused.text
    )
    assert said and html.unescape(said.group(1)) == "俱乐部名称最多 60 个字符。"
    assert 'name="private" id="club-private" checked' in refused.text  # what was typed stays
    unknown = {"csrf_token": _csrf(client), "name": "Night", "rating": "elo"}
    assert client.post("/clubs", data=unknown).status_code == 422


def test_the_organisers_part_is_for_the_token_only(client: TestClient) -> None:
    club, token = _make(client)
    panel = f"/c/{club}/organise/panel"
    assert client.get("/c/nosuch/organise/panel", headers=token).status_code == 404
    assert client.get("/c/nosuch/organise").status_code == 404
    assert client.get(panel).status_code == 401
    assert client.get(panel, headers={"Authorization": "Bearer nope"}).status_code == 403
    api = f"/api/clubs/{club}"
    client.post(f"{api}/players", json={"name": "Ann", "nickname": "Annie"}, headers=token)
    client.post(f"{api}/players", json={"name": "Ben"}, headers=token)
    client.post(f"{api}/players", json={"name": "Benny"}, headers=token)
    client.post(f"{api}/players/merge", json={"name": "Benny", "into": "Ben"}, headers=token)
    shown = client.get(panel, headers=token)
    assert shown.status_code == 200
    assert shown.headers["cache-control"] == "private, no-store"
    assert re.findall(r'<tr data-player="([^"]+)">', shown.text) == ["Ann", "Ben"]
    assert "Merged in: Benny" in shown.text
    unmerge = re.search(r'<select id="unmerge-name" name="name">(.*?)</select>', shown.text)
    assert unmerge and re.findall(r"<option>([^<]+)</option>", unmerge.group(1)) == ["Benny"]
    for action in ("add", "rename", "merge", "unmerge", "attach", "settings"):
        assert f'data-action="{action}"' in shown.text
    wrong = client.get(f"/api/clubs/{club}", headers={"Authorization": "Bearer nope"})
    assert (wrong.status_code, wrong.json()["error_key"]) == (403, "refusal.club_token")


def _private_club(client: TestClient) -> tuple[str, dict[str, str], str]:
    """A private club of one finished riichi game (Ann deals Ben a yakuman)."""
    club, token = _make(client, private="on")
    table = client.post(
        f"/api/clubs/{club}/tables",
        json={"profile": "riichi", "players": ["Ann", "Ben", "Cat", "Dan"], "options": RIICHI},
        headers=token,
    ).json()
    hand = {"kind": "win", "winner": "Ben", "from": "Ann", "yakuman": 1}
    write = {"Authorization": f"Bearer {table['token']}"}
    assert client.post(f"/api/tables/{table['id']}/hands", json=hand, headers=write).is_success
    return club, token, table["id"]


READS = (
    "/api/clubs/{club}",
    "/api/clubs/{club}/ratings",
    "/api/clubs/{club}/ratings?format=csv",
    "/api/clubs/{club}/players/Ann",
    "/api/clubs/{club}/players/Ann?format=csv",
    "/api/clubs/{club}/games",
    "/api/clubs/{club}/games?format=csv",
)


def test_a_private_clubs_reads_need_the_organisers_token(client: TestClient) -> None:
    club, token, _ = _private_club(client)
    for path in (read.format(club=club) for read in READS):
        refused = client.get(path)
        assert refused.status_code == 403, path
        assert refused.json() == {
            "error": "this club keeps its ratings and players' pages to its organiser: open "
            "them with the organiser's link",
            "error_key": "refusal.club_private",
            "error_params": {},
        }
        assert client.get(path, headers={"Authorization": "Bearer nope"}).status_code == 403
        read = client.get(path, headers=token)
        assert read.status_code == 200, path
        assert read.headers["cache-control"] == "private, no-store", path
    board = client.get(f"/api/clubs/{club}/ratings", headers=token).json()
    assert [row["name"] for row in board["players"]] == ["Ben", "Cat", "Dan", "Ann"]
    assert client.get("/api/clubs/nosuch/ratings").status_code == 404


def test_a_private_clubs_pages_say_so_in_the_readers_language(client: TestClient) -> None:
    club, token, _ = _private_club(client)
    for path in (f"/c/{club}", f"/c/{club}/p/Ann"):
        refused = client.get(path, params={"lang": "zh-Hant"})
        assert refused.status_code == 403
        assert i18n.translate(i18n.ZH_HANT, "refusal.club_private") in refused.text
        assert "data-private-club" in refused.text and "Ben" not in refused.text
        read = client.get(path, headers=token)
        assert read.status_code == 200 and "Ben" in read.text
        assert read.headers["cache-control"] == "private, no-store"


def test_the_organiser_makes_the_club_public_and_private_again(client: TestClient) -> None:
    club, token, _ = _private_club(client)
    settings = f"/api/clubs/{club}/settings"
    assert client.post(settings, json={"private": False}).status_code == 401
    bad = client.post(settings, json={"private": False}, headers={"Authorization": "Bearer x"})
    assert bad.status_code == 403
    assert client.get(f"/c/{club}").status_code == 403
    assert client.post(settings, json={"private": "no"}, headers=token).status_code == 422
    opened = client.post(settings, json={"private": False, "by": "Mo"}, headers=token)
    assert (opened.status_code, opened.json()) == (201, {"private": False})
    public = client.get(f"/c/{club}")
    assert public.status_code == 200 and "private" not in public.headers.get("cache-control", "")
    assert client.get(f"/api/clubs/{club}/players/Ann").status_code == 200
    closed = client.post(settings, json={"private": True}, headers=token)
    assert closed.json() == {"private": True}
    assert client.get(f"/api/clubs/{club}/ratings").status_code == 403
