"""``irr app`` end to end, in a real headless Chromium driven by selenium.

The real server runs as ``python -m irr app --no-browser`` (a free port; the URL with its
token is the first line it prints). The tests upload the bundled anxiety file and a
clinician's CSV, correct the detected identifier columns, choose statistics, read the
numbers from the page and compare them with :func:`irr.report` on the same data, download
the report and open it, check that a hostile file name and header run no script and that a
request without the token is refused, and save the screenshots of the docs' "Without code"
page (docs/_static/app/) at 390 and 1280 px.

Debian's chromium and chromium-driver (``.ci/run`` installs them). Without them the tests
are skipped, in CI too unless ``CI`` is set (then a missing browser fails).
"""

import base64
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pandas as pd
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")
from app_samples import (  # noqa: E402
    ANXIETY,
    CLINICIAN,
    HOSTILE,
    HOSTILE_HEADER,
    HOSTILE_NAME,
    clinician_frame,
    write,
)
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import irr  # noqa: E402
from tests.support.chromium import chromedriver, chromium  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHOTS = ROOT / "docs" / "_static" / "app"
#: Seconds to wait for the server to start and for a report (a bootstrap on 2 shared cores).
START, COMPUTE = 60, 120


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The real ``irr app`` in a subprocess: (url with token, base url, temp folder)."""
    tmp = tmp_path_factory.mktemp("apptmp")
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(ROOT)}
    log = open(tmp / "stderr.txt", "w")  # noqa: SIM115  (closed below)
    process = subprocess.Popen(
        [sys.executable, "-m", "irr", "app", "--no-browser"], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), (tmp / "stderr.txt").read_text()
        base = url.split("/?token=")[0]
        deadline = time.monotonic() + START
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    response.read()
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.3)
        yield url, base, tmp
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()
        log.close()


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    binary, driver_path = chromium(), chromedriver()
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium never downloads a driver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False,
        "profile.default_content_setting_values.automatic_downloads": 1})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def open_page(browser, url, width=1280):
    browser.set_window_size(width, 900)
    browser.get(url)
    WebDriverWait(browser, START).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")


def wait_visible(browser, element_id, seconds=COMPUTE):
    WebDriverWait(browser, seconds).until(ec.visibility_of_element_located((By.ID, element_id)))
    return browser.find_element(By.ID, element_id)


def upload(browser, path):
    before = browser.find_element(By.ID, "status").text
    browser.find_element(By.ID, "file").send_keys(str(path))
    WebDriverWait(browser, COMPUTE).until(
        lambda d: (d.find_element(By.ID, "status").text.startswith("Read ")
                   and d.find_element(By.ID, "status").text != before)
        or d.find_element(By.ID, "error").is_displayed())
    error = browser.find_element(By.ID, "error")
    assert not error.is_displayed(), error.text


def compute(browser):
    browser.find_element(By.ID, "compute").click()
    try:
        WebDriverWait(browser, COMPUTE).until(
            lambda d: d.find_element(By.ID, "status").text.startswith("The report is ready")
            or d.find_element(By.ID, "error").is_displayed())
    except TimeoutException:
        pytest.fail("no report: " + browser.find_element(By.ID, "status").text)
    error = browser.find_element(By.ID, "error")
    assert not error.is_displayed(), error.text
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        "var f = document.getElementById('report-frame');"
        "return f.contentDocument && f.contentDocument.querySelector('table.results') !== null"
        " && f.style.height !== '';"))


def page_numbers(browser):
    """{statistic: (estimate, ci_low, ci_high)} as the report in the page shows them."""
    browser.switch_to.frame(browser.find_element(By.ID, "report-frame"))
    try:
        header = [th.text for th in browser.find_elements(By.CSS_SELECTOR,
                                                          "table.results thead th")]
        rows = {}
        for tr in browser.find_elements(By.CSS_SELECTOR, "table.results tbody tr"):
            cells = [c.text for c in tr.find_elements(By.CSS_SELECTOR, "th, td")]
            row = dict(zip(header, cells, strict=True))
            low, high = row[next(h for h in header if h.endswith("CI"))].strip("[]").split(", ")
            rows[row["Statistic"]] = tuple(float(v.replace("−", "-"))
                                           for v in (row["Estimate"], low, high))
        return rows
    finally:
        browser.switch_to.default_content()


def expected_numbers(rep):
    return {r.coefficient: (round(r.estimate, 3), round(r.ci.low, 3), round(r.ci.high, 3))
            for r in rep.results}


def shot(browser, name, width, element_id=None, max_height=2400):
    """A screenshot for the docs at `width` px: the page from its top, or the element
    `element_id`, at most `max_height` px of it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(width, 900)
    top, height = browser.execute_script(
        "var e = arguments[0] ? document.getElementById(arguments[0]) : document.body;"
        "var r = e.getBoundingClientRect();"
        "return [arguments[0] ? r.top + window.scrollY - 8 : 0,"
        "        arguments[0] ? r.height + 16 : document.documentElement.scrollHeight];",
        element_id)
    png = browser.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": top, "width": width, "height": min(height, max_height),
                 "scale": 1}})["data"]
    (SHOTS / name).write_bytes(base64.b64decode(png))


def fits(browser, width):
    """Whether the page needs no horizontal scrolling at `width` px."""
    browser.set_window_size(width, 900)
    return browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")


def test_the_anxiety_file_gives_irr_reports_numbers(server, browser):
    url, _, _ = server
    open_page(browser, url)
    upload(browser, ANXIETY)
    facts = browser.find_element(By.ID, "facts").text
    assert "Raters\n3: rater1, rater2, rater3" in facts
    assert "ordinal, 6 categories" in facts
    ticked = [i.get_attribute("value") for i in browser.find_elements(
        By.CSS_SELECTOR, "#statistics input:checked")]
    assert ticked == ["percent", "alpha_ordinal", "icc_a1"]  # recommended, preselected
    compute(browser)
    assert browser.find_element(By.ID, "command").text == "irr report anxiety.csv"
    expected = irr.report(pd.read_csv(ANXIETY), figures=False)
    assert page_numbers(browser) == expected_numbers(expected)
    for width in (390, 1280):
        assert fits(browser, width), width


def test_a_clinicians_file_corrected_and_reported(server, browser, tmp_path, downloads):
    url, _, _ = server
    path = write(tmp_path, "grades.csv", CLINICIAN)
    open_page(browser, url)
    upload(browser, path)
    assert browser.find_element(By.ID, "na-values").get_attribute("value") == "."
    facts = browser.find_element(By.ID, "facts").text
    assert "Identifier columns\npatient, site" in facts
    assert 'ward, nurse_a, "nurse_b ", nurse_c' in facts  # the trailing space shown
    # the ward column is not a rater: mark it, and apply
    ward = browser.find_element(By.CSS_SELECTOR, "#roles select[data-column='ward']")
    Select(ward).select_by_value("id")
    browser.find_element(By.ID, "apply").click()
    WebDriverWait(browser, COMPUTE).until(lambda d: "patient, site, ward" in d.find_element(
        By.ID, "facts").text)
    assert "Raters\n3: nurse_a, \"nurse_b \", nurse_c" in browser.find_element(
        By.ID, "facts").text
    for width in (390, 1280):
        assert fits(browser, width), width
    shot(browser, "detected-390.png", 390, "step-detect")
    shot(browser, "detected-1280.png", 1280, "step-detect")
    # choose the statistics: Fleiss' kappa, ordinal alpha and ICC(A,1), BCa intervals
    browser.find_element(By.ID, "stats-clear").click()
    browser.find_element(By.CSS_SELECTOR, "#more-statistics summary").click()
    for name in ("fleiss", "alpha_ordinal", "icc_a1"):
        browser.find_element(By.ID, f"stat-{name}").click()
    Select(browser.find_element(By.ID, "ci")).select_by_value("bca")
    shot(browser, "statistics-1280.png", 1280, "step-stats")
    compute(browser)
    assert browser.find_element(By.ID, "command").text == (
        "irr report grades.csv --id=patient --id=site --id=ward --raters nurse_a 'nurse_b ' "
        "nurse_c --na-values=. --statistics=alpha_ordinal,icc_a1,fleiss --ci=bca")
    expected = irr.report(clinician_frame(path), ["alpha_ordinal", "icc_a1", "fleiss"],
                          id=["patient", "site", "ward"], ci="bca", figures=False)
    assert page_numbers(browser) == expected_numbers(expected)
    shot(browser, "report-1280.png", 1280, "step-report")
    shot(browser, "report-390.png", 390, "step-report")
    # download the report, open it: the same numbers, its figures drawn
    for old in downloads.iterdir():
        old.unlink()
    browser.find_element(By.LINK_TEXT, "Report (HTML)").click()
    browser.find_element(By.XPATH, "//button[text()='Figure 1 (PNG)']").click()
    browser.find_element(By.LINK_TEXT, "Results (JSON)").click()
    report = downloads / "reliability-report.html"
    png = downloads / "reliability-report-figure-1.png"
    results = downloads / "reliability-report.json"
    WebDriverWait(browser, COMPUTE).until(lambda d: all(
        p.exists() and p.stat().st_size > 0 for p in (report, png, results)))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = json.loads(results.read_text(encoding="utf-8"))
    assert [r["estimate"] for r in saved["results"]] == pytest.approx(
        [r.estimate for r in expected.results])
    browser.get(report.as_uri())
    assert browser.title == "Agreement among 3 raters"
    assert browser.execute_script(
        "return Array.from(document.querySelectorAll('figure img')).every("
        "i => i.complete && i.naturalWidth > 0)")
    cells = browser.find_elements(By.CSS_SELECTOR, "table.results tbody tr td.num")
    assert f"{expected.results[0].estimate:.3f}" in [c.text for c in cells]


def test_a_hostile_file_name_and_header_run_no_script(server, browser, tmp_path):
    url, _, _ = server
    path = write(tmp_path, HOSTILE_NAME, HOSTILE)
    open_page(browser, url)
    upload(browser, path)
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#preview thead th")]
    assert HOSTILE_HEADER in headers  # shown as text
    assert browser.find_element(By.ID, "data-name").text == HOSTILE_NAME
    compute(browser)
    assert HOSTILE_NAME in browser.find_element(By.ID, "command").text
    assert browser.execute_script("return window.__pwned === undefined")
    browser.switch_to.frame(browser.find_element(By.ID, "report-frame"))
    try:
        assert browser.execute_script("return window.__pwned === undefined")
        assert HOSTILE_HEADER in browser.find_element(By.TAG_NAME, "body").text
    finally:
        browser.switch_to.default_content()


def test_an_unreadable_file_shows_the_command_lines_one_line_message(server, browser,
                                                                     tmp_path):
    url, _, _ = server
    open_page(browser, url)
    upload(browser, ANXIETY)
    browser.find_element(By.ID, "file").send_keys(str(write(tmp_path, "ragged.csv",
                                                            "a,b\n1,2\n1,2,3\n")))
    error = wait_visible(browser, "error")
    assert error.text == "cannot read 'ragged.csv': line 3 has 3 fields, the header has 2"
    # under the step it concerns, and the old data's steps are gone
    assert error.find_element(By.XPATH, "..").get_attribute("id") == "step-data"
    assert not browser.find_element(By.ID, "step-detect").is_displayed()
    assert not browser.find_element(By.ID, "step-stats").is_displayed()


def test_a_request_without_the_token_is_refused(server, browser):
    url, base, _ = server
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(base + "/", timeout=10)
    assert refused.value.code == 403
    refused.value.close()
    browser.get(base + "/")
    assert "needs the token" in browser.find_element(By.TAG_NAME, "body").text
    browser.get(url.replace("token=", "token=x"))
    assert "needs the token" in browser.find_element(By.TAG_NAME, "body").text


def test_the_plan_tab_works_from_the_keyboard(server, browser):
    url, _, _ = server
    open_page(browser, url)
    tab = browser.find_element(By.ID, "tab-report")
    tab.click()
    tab.send_keys(Keys.ARROW_RIGHT)  # the tab list: arrows move between tabs
    assert browser.switch_to.active_element.get_attribute("id") == "tab-plan"
    assert browser.find_element(By.ID, "panel-plan").is_displayed()
    assert not browser.find_element(By.ID, "panel-report").is_displayed()
    field = browser.find_element(By.ID, "kappa1")
    field.clear()
    field.send_keys("0.7")
    button = browser.find_element(By.ID, "plan-run")
    browser.execute_script("arguments[0].focus()", button)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait_visible(browser, "plan-out")
    n = browser.find_element(By.CSS_SELECTOR, "#plan-table tbody tr").text
    expected = irr.plan.kappa(0.4, 0.7, raters=2, categories=3, power=0.8).n
    assert f" {expected} " in f" {n} "
    assert browser.find_element(By.ID, "plan-sentences").text.startswith(
        f"With {expected} subjects")
    # every control on the page has a label
    unlabelled = browser.execute_script(
        "return Array.from(document.querySelectorAll('input, select')).filter("
        "e => e.type !== 'hidden' && e.labels.length === 0 && !e.getAttribute('aria-label'))"
        ".map(e => e.id || e.name)")
    assert unlabelled == []
    shot(browser, "plan-1280.png", 1280)


def test_ctrl_c_stops_the_app_and_removes_its_files(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "irr", "app", "--no-browser"], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        assert "/?token=" in url
        assert [p.name[:8] for p in tmp_path.iterdir()] == ["irr-app-"]
        deadline = time.monotonic() + START
        while True:  # serving
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    response.read()
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline
                time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        assert list(tmp_path.iterdir()) == []
        assert "stopped" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
