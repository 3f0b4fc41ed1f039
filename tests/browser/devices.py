"""The browser tests' devices: a phone and a desktop, each a browser context of its own."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}


def new_context(browser: Any, viewport: dict[str, int], **extra: Any) -> Any:
    """A browser context for `viewport` (a phone's touch and pixel ratio at `PHONE`), in
    English, its service worker blocked unless `extra` says otherwise."""
    phone = viewport is PHONE
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale="en-US",
        **({"service_workers": "block"} | extra),
    )
    context.set_default_timeout(10_000)
    return context
