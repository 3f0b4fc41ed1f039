"""Safe by default: size limit, cross-site refusals, CSRF for forms, headers, no tracebacks,
and the token helpers the table endpoints use."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from companion.api import create_app
from companion.api.security import (
    CONTENT_SECURITY_POLICY,
    CSRF_COOKIE,
    authorize,
    bearer_token,
    new_token,
    token_digest,
    tokens_equal,
)
from companion.web.pages import safe_next

HAND = {"hand": "789m1223333445s6s"}


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def assert_secure_headers(headers: Mapping[str, str]) -> None:
    """The security headers every response carries, whatever its status or type."""
    expected = {
        "content-security-policy": CONTENT_SECURITY_POLICY,
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "same-origin",
    }
    sent = {name: headers.get(name) for name in expected}
    assert sent == expected, f"the response's security headers differ: {sent}"
    for directive in ("default-src 'self'", "frame-ancestors 'none'"):
        assert directive in CONTENT_SECURITY_POLICY, f"the policy lacks {directive}"
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY, "the policy allows inline code"


@pytest.mark.parametrize(
    "path", ["/", "/docs", "/api/health", "/openapi.json", "/static/app.css", "/nowhere"]
)
def test_every_response_has_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert_secure_headers(response.headers)
    assert "server" not in response.headers or "uvicorn" not in response.headers["server"]


# --- Body size ------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_a_413(client: TestClient) -> None:
    response = client.post("/api/score", json={"hand": "1m" * 40_000})
    assert response.status_code == 413
    assert response.json() == {"error": "the request body is larger than 64 KiB"}
    assert_secure_headers(response.headers)


def test_a_streamed_body_over_the_limit_is_a_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"hand": "'
        for _ in range(100):
            yield b"1m" * 512
        yield b'"}'

    response = client.post(
        "/api/score", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_the_limit_is_configurable() -> None:
    client = TestClient(create_app(max_body=100))
    assert client.post("/api/score", json=HAND).status_code == 200
    assert client.post("/api/score", json={"hand": "1m" * 60}).status_code == 413


def test_a_bad_content_length_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/score", content=b"{}", headers={"content-length": "x", "content-type": "text/json"}
    )
    # An unreadable length cannot vouch for the body's size: it is treated as over the limit.
    assert response.status_code == 413, response.text
    assert response.json() == {"error": "the request body is larger than 64 KiB"}


# --- Cross-site requests and CSRF ----------------------------------------------------------


def test_clients_without_origin_may_post(client: TestClient) -> None:
    assert client.post("/api/score", json=HAND).status_code == 200


def test_same_origin_posts_pass(client: TestClient) -> None:
    response = client.post("/api/score", json=HAND, headers={"origin": "http://testserver"})
    assert response.status_code == 200
    fetch = client.post("/api/score", json=HAND, headers={"sec-fetch-site": "same-origin"})
    assert fetch.status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"origin": "http://testserver.evil.example"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_cross_site_posts_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    response = client.post("/api/score", json=HAND, headers=headers)
    assert response.status_code == 403
    assert response.json() == {"error": "cross-site request refused"}


def test_trusted_origins_may_post() -> None:
    client = TestClient(create_app(trusted_origins=["https://scores.example"]))
    response = client.post("/api/score", json=HAND, headers={"origin": "https://scores.example"})
    assert response.status_code == 200


def csrf_cookie(client: TestClient) -> str:
    response = client.get("/")
    header = response.headers["set-cookie"]
    assert f"{CSRF_COOKIE}=" in header
    assert "HttpOnly" in header and "SameSite=Strict" in header
    token = client.cookies.get(CSRF_COOKIE)
    assert token and len(token) >= 32
    assert f'name="csrf_token" value="{token}"' in response.text
    return token


def test_the_language_form_needs_the_csrf_token(client: TestClient) -> None:
    token = csrf_cookie(client)
    missing = client.post("/lang", data={"lang": "zh-Hant", "next": "/"})
    assert missing.status_code == 403
    assert "security token" in missing.json()["error"]
    wrong = client.post("/lang", data={"lang": "zh-Hant", "csrf_token": "x" * 43})
    assert wrong.status_code == 403
    good = client.post(
        "/lang",
        data={"lang": "zh-Hant", "next": "/?x=1", "csrf_token": token},
        follow_redirects=False,
    )
    assert good.status_code == 303
    assert good.headers["location"] == "/?x=1"
    assert "companion_lang=zh-Hant" in good.headers["set-cookie"]


def test_a_form_without_the_cookie_is_refused(client: TestClient) -> None:
    response = client.post("/lang", data={"lang": "en", "csrf_token": new_token()})
    assert response.status_code == 403


def test_multipart_bodies_are_refused(client: TestClient) -> None:
    response = client.post("/lang", files={"upload": ("a.txt", b"hello")})
    assert response.status_code == 415


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/", "/"),
        ("/docs", "/docs"),
        ("//evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil.example", "/"),
        ("", "/"),
        (None, "/"),
        ("docs", "/"),
    ],
)
def test_the_language_switch_only_goes_back_to_this_site(target: str | None, expected: str) -> None:
    assert safe_next(target) == expected


# --- Errors ---------------------------------------------------------------------------------


def test_an_unexpected_error_is_a_plain_500() -> None:
    app = create_app()

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("secret internals")

    @app.get("/boom-page")
    async def boom_page() -> None:
        raise RuntimeError("secret internals")

    client = TestClient(app, raise_server_exceptions=False)
    for path in ("/api/boom", "/boom-page"):
        response = client.get(path)
        assert response.status_code == 500
        assert response.json() == {"error": "Companion hit an unexpected error"}
        assert "secret" not in response.text and "Traceback" not in response.text
        assert_secure_headers(response.headers)


def test_a_missing_page_is_an_html_404(client: TestClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "There is no page here." in response.text


# --- Tokens ---------------------------------------------------------------------------------


def test_token_helpers() -> None:
    first, second = new_token(), new_token()
    assert first != second and len(first) >= 43
    assert tokens_equal(first, first)
    assert not tokens_equal(first, second)
    assert not tokens_equal(first, first[:-1])
    assert tokens_equal("täble", "täble")
    assert token_digest(first) == token_digest(first) != token_digest(second)
    assert len(token_digest(first)) == 64


def token_app() -> TestClient:
    app = create_app()
    secret = "s3cret-token-of-the-table-000000000000000000"

    @app.post("/api/guarded")
    async def guarded(request: Request) -> dict[str, bool]:
        authorize(request, token=secret)
        return {"ok": True}

    @app.post("/api/guarded-digest")
    async def guarded_digest(request: Request) -> dict[str, bool]:
        authorize(request, digest=token_digest(secret))
        return {"ok": True}

    @app.get("/api/bearer")
    async def bearer(request: Request) -> dict[str, str | None]:
        return {"token": bearer_token(request)}

    return TestClient(app)


@pytest.mark.parametrize("path", ["/api/guarded", "/api/guarded-digest"])
def test_authorize(path: str) -> None:
    client = token_app()
    missing = client.post(path)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    assert "Authorization: Bearer" in missing.json()["error"]
    basic = client.post(path, headers={"authorization": "Basic abc"})
    assert basic.status_code == 401
    wrong = client.post(path, headers={"authorization": "Bearer nope"})
    assert wrong.status_code == 403
    assert wrong.json() == {"error": "the token does not match this table"}
    good = client.post(
        path, headers={"authorization": "bearer s3cret-token-of-the-table-000000000000000000"}
    )
    assert good.status_code == 200


def test_bearer_token_parsing() -> None:
    client = token_app()
    assert client.get("/api/bearer").json() == {"token": None}
    assert client.get("/api/bearer", headers={"authorization": "Bearer  abc "}).json() == {
        "token": "abc"
    }
    assert client.get("/api/bearer", headers={"authorization": "Bearer"}).json() == {"token": None}


def test_authorize_needs_one_kind_of_secret() -> None:
    app = FastAPI()

    @app.get("/")
    async def index(request: Request) -> None:
        authorize(request)

    with pytest.raises(ValueError, match="exactly one"):
        TestClient(app).get("/")
