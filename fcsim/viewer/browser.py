"""Headless Chromium for the viewer's browser test and its screenshot (selenium, dev extra).

The browser is Debian's ``chromium`` driven through its ``chromium-driver`` (paths below,
or ``$FCSIM_CHROMIUM`` / ``$FCSIM_CHROMEDRIVER``): selenium is given the driver's path, so
it never looks for or downloads one, and Chromium runs with a fresh profile and its
background network features off (the page needs no network at all).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("FCSIM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("FCSIM_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
INSTALL_HINT = ("install it with: apt-get install -y chromium chromium-driver, and "
                "pip install -e '.[dev]' for selenium")


def missing() -> str | None:
    """Why the browser cannot be driven here (None when it can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).is_file() and os.access(path, os.X_OK)):
            return f"{path} not found; {INSTALL_HINT}"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return f"selenium is not installed; {INSTALL_HINT}"
    return None


@contextmanager
def headless_chromium(width: int = 1280, height: int = 1000) -> Iterator[Any]:
    """A selenium ``WebDriver`` on a fresh headless Chromium, closed on exit."""
    reason = missing()
    if reason is not None:
        raise RuntimeError(f"cannot start headless Chromium: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="fcsim-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
