#!/usr/bin/env python3
"""Opens iomark's pages in Debian's headless chromium through Selenium and chromedriver.

    check.py report FILE SHOT.png   the HTML report: no console error, every chart drew
    check.py live URL SHOT.png [GATE]
                                    the live page: its figures change while the run goes on,
                                    then (once it writes a line to the fifo GATE, which ends
                                    the run) it turns into the final report

Run by the cli's test program (tests/cli/pictures/browser.rs), which skips when chromium,
chromedriver or Selenium is missing. Prints one line per check and exits 1 on a failure.
"""
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException


def browser(profile):
    opts = Options()
    opts.binary_location = "/usr/bin/chromium"
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", "--user-data-dir=" + profile, "--window-size=1300,1000"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


CHARTS_DREW = """
return Array.from(document.querySelectorAll('svg.chart')).map(function (svg) {
  var n = 0;
  svg.querySelectorAll('.series').forEach(function (s) { n += Number(s.getAttribute('data-points')); });
  return [svg.id, n];
});
"""


def js(driver, code):
    """Runs `code`; None while the page is being replaced (the live page turning into the
    report), retried a bounded number of times."""
    for _ in range(50):
        try:
            return driver.execute_script(code)
        except WebDriverException:
            time.sleep(0.1)
    return None


def full_screenshot(driver, path):
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1300, min(max(height, 600), 12000))
    driver.save_screenshot(path)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def check_report(driver, path, shot):
    driver.get("file://" + path)
    charts = driver.execute_script(CHARTS_DREW)
    if not charts:
        fail("no chart in the report")
    empty = [c for c, n in charts if n == 0]
    if empty:
        fail("charts that drew nothing: %s" % empty)
    print("ok: %d charts drew (%d points)" % (len(charts), sum(n for _, n in charts)))
    full_screenshot(driver, shot)
    errors = console_errors(driver)
    if errors:
        fail("console errors: %s" % errors)
    print("ok: no console error; screenshot", shot)


def check_live(driver, url, shot, gate=None):
    driver.get(url)
    seen = []
    deadline = time.time() + 60
    # Figures from two different intervals (bounded in time).
    while len(seen) < 2 and time.time() < deadline and "report.html" not in driver.current_url:
        seq = js(driver, "return document.body.getAttribute('data-seq')")
        figures = js(driver, "var t = document.getElementById('figures'); return t ? t.innerText : null")
        status = js(driver, "var s = document.getElementById('status'); return s ? s.innerText : null")
        if seq and seq != "0" and figures and (not seen or seen[-1][0] != seq):
            seen.append((seq, figures, status))
        time.sleep(0.2)
    if len(seen) < 2:
        fail("the live page showed %d updates: %s" % (len(seen), seen))
    if len({(f, s) for _, f, s in seen}) < 2:
        fail("the live figures did not change: %s" % seen)
    print("ok: the live figures changed over %d updates" % len(seen))
    charts = js(driver, CHARTS_DREW)
    if not charts or any(n == 0 for _, n in charts):
        fail("live charts: %s" % charts)
    full_screenshot(driver, shot.replace(".png", "-live.png"))
    if gate:
        # The run goes on until this line opens its gate (a fifo its gate job reads).
        with open(gate, "w") as fifo:
            fifo.write("go\n")
    deadline = time.time() + 120
    while "report.html" not in driver.current_url and time.time() < deadline:
        time.sleep(0.2)
    if "report.html" not in driver.current_url:
        fail("the live page never turned into the final report")
    charts = js(driver, CHARTS_DREW)
    if not charts or any(n == 0 for _, n in charts):
        fail("final report charts: %s" % charts)
    full_screenshot(driver, shot)
    errors = console_errors(driver)
    if errors:
        fail("console errors: %s" % errors)
    print("ok: the live page became the final report; no console error; screenshot", shot)


def main():
    mode, target, shot = sys.argv[1:4]
    gate = sys.argv[4] if len(sys.argv) > 4 else None
    with tempfile.TemporaryDirectory() as profile:
        driver = browser(profile)
        try:
            if mode == "report":
                check_report(driver, target, shot)
            else:
                check_live(driver, target, shot, gate)
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
