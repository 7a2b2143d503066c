"""Headless Chromium for the browser tests: finding it (and chromedriver), and the DOM of a
file after Chromium has loaded it and run whatever it would run, in one Chromium driven
by selenium that a test module shares for all its files (``session`` and ``loaded_dom``:
Chromium starts in seconds, a page loads in a fraction of one).

Chromium is Debian's package (``.ci/run`` installs chromium and chromium-driver when
missing). Outside CI a test that needs it is skipped on a machine without it; in CI (``CI``
set) a missing browser fails the test.
"""

import contextlib
import os
import shutil

import pytest

#: The names a Chromium binary goes by.
NAMES = ("chromium", "chromium-browser", "google-chrome")


def _missing(what):
    if os.environ.get("CI"):
        pytest.fail(f"{what} is needed in CI (.ci/run installs Debian's)")
    pytest.skip(f"no {what} on this machine")


def chromium():
    """The path of a Chromium binary; skips the test (fails it in CI) when there is none."""
    path = next(filter(None, map(shutil.which, NAMES)), None)
    return path if path is not None else _missing("headless Chromium")


def chromedriver():
    """The path of chromedriver; skips the test (fails it in CI) when there is none."""
    path = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    return path if path is not None else _missing("chromium-driver (chromedriver)")


@contextlib.contextmanager
def session(*flags):
    """One headless Chromium driven by selenium through chromedriver, quit on exit; skips
    the test (fails it in CI) without Chromium, chromedriver or selenium. `flags` are
    further Chromium switches."""
    binary, driver_path = chromium(), chromedriver()
    webdriver = pytest.importorskip("selenium.webdriver")
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium never downloads a driver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-extensions", "--disable-dev-shm-usage", *flags):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()


def loaded_dom(driver, path):
    """The DOM of the file `path` in `driver` (a :func:`session`) once its load event has
    fired: the document as its parser, its scripts and the handlers fired while it loaded
    (``onload``, ``onerror``, frames) built it, serialised as ``--dump-dom`` prints it."""
    driver.get(path.as_uri())
    return driver.execute_script("return document.documentElement.outerHTML")
