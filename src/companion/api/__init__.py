"""The HTTP API and web app (FastAPI): `create_app()`; `companion serve` runs it."""

from __future__ import annotations

from companion.api.app import create_app

__all__ = ["create_app"]
