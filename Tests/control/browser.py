# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's chromium, headless, driven by Selenium through /usr/bin/chromedriver, with its network
log kept (what a page sends), and a wait that lets a page's elements arrive."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(language="en-US"):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1100,900", f"--lang={language}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(condition, what, timeout=15, poll=0.02):
    """Polls `condition` until it is true; an exception counts as not yet (an element not there)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except Exception:  # noqa: BLE001 - an element not there yet
            pass
        time.sleep(poll)
    raise AssertionError(f"timed out waiting for {what}")
