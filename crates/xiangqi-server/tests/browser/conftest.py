"""Fixtures for the web client's browser tests.

`cargo xtask test` starts `xiangqi serve` on 127.0.0.1 and passes its URL in
XQ_SERVER_URL, the Chromium and chromedriver paths in XQ_CHROMIUM and
XQ_CHROMEDRIVER, and the screenshot folder in XQ_SCREENSHOTS.

They run against one process, not a cluster of nodes: a page talks to the
one node its socket reached with the same protocol either way, and what a
cluster adds (actions forwarded to a game's owner, events relayed, a node
killed, a game played through the documented HAProxy in front of three
nodes) is tested over real sockets in crates/xiangqi-cli/tests/serve_cluster.rs.
"""

import os
import secrets
import shutil
import tempfile
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from pages import Client

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def server_url():
    url = os.environ.get("XQ_SERVER_URL")
    if not url:
        pytest.fail("XQ_SERVER_URL is not set: run these tests through `cargo xtask test`")
    return url.rstrip("/")


@pytest.fixture(scope="session")
def screenshots():
    root = Path(__file__).resolve().parents[4]
    folder = Path(os.environ.get("XQ_SCREENSHOTS", root / "target" / "browser-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def open_client(server_url, screenshots):
    """Opens browser sessions, each with its own profile (so its own cookie)."""
    drivers = []
    profiles = []

    def open_one(width=1200, height=900, phone=False, languages=None):
        """A desktop window of `width` x `height`, or with `phone`, a phone's
        viewport of that size (touch, device pixel ratio 2): a desktop window
        cannot be narrower than 500 pixels. `languages` ("cs-CZ,cs") is the
        browser's language list (`navigator.languages`, Accept-Language)."""
        profile = tempfile.mkdtemp(prefix="xq-chromium-")
        profiles.append(profile)
        options = webdriver.ChromeOptions()
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        if phone:
            options.add_experimental_option("mobileEmulation", {
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": True, "mobile": True},
            })
        else:
            options.add_argument(f"--window-size={width},{height}")
        if languages:
            options.add_argument(f"--lang={languages.split(',')[0]}")
            options.add_experimental_option("prefs", {"intl.accept_languages": languages})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        options.binary_location = os.environ.get("XQ_CHROMIUM", "/usr/bin/chromium")
        service = Service(os.environ.get("XQ_CHROMEDRIVER", "/usr/bin/chromedriver"))
        driver = webdriver.Chrome(options=options, service=service)
        drivers.append(driver)
        return Client(driver, server_url, screenshots)

    yield open_one
    for driver in drivers:
        driver.quit()
    for profile in profiles:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def unique_name():
    return lambda prefix: f"{prefix}_{secrets.token_hex(3)}"
