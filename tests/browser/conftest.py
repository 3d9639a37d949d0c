"""Shared Playwright fixtures: Debian's Chromium, headless, one page per test.

Playwright's own browser download does not work here; the system Chromium is used.
Tests using these are marked `@pytest.mark.browser` and skip when Chromium is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        message = "Chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop; Django refuses ORM calls beside it unless
    # told. Only while a browser runs, so the flag does not leak into other tests' processes.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def browser_page(chromium_browser: object) -> Iterator[object]:
    """A fresh page (1280×900, English) in its own context; closed after the test."""
    context = chromium_browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 1280, "height": 900}, locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def screenshot(browser_page: object):  # noqa: ANN201
    """`screenshot("name")` saves a full-page PNG under artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        browser_page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        return path

    return take
