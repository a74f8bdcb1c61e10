#!/usr/bin/env python3
"""End to end: the API page `thrum serve` serves at `/web/api.html`, in headless Chromium driven by Selenium.

Usage: browser_e2e.py URL [--screenshots DIR] [--timeout SECONDS]
URL is the first line `thrum serve` prints. Opens the page, waits until it is connected, loads the
default pattern, plays it until the event log shows `player.finished`, drags the intensity slider
over a longer pattern, loads a broken pattern, and checks the browser's console stayed clean (a
Content-Security-Policy violation shows there). One line per check; exit 0 only when all passed.
Uses Debian's chromium and chromium-driver (scripts/ensure-deps); a watchdog ends the run, the
browser included, after the timeout (default 120 s).
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import signal
import sys
import threading
import time
import traceback
import urllib.request
from pathlib import Path
from typing import Any, Callable, List, Optional
from urllib.parse import urlsplit, urlunsplit

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = os.environ.get("THRUM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("THRUM_CHROMEDRIVER", "/usr/bin/chromedriver")
BROKEN = '{"Version": 1, "Pattern": [{"Event": {"Time": -1, "EventType": "HapticTransient"}}]}'


class CheckFailed(Exception):
    pass


class Run:
    def __init__(self, url: str, driver: WebDriver, screenshots: Optional[Path]):
        self.url = url
        self.driver = driver
        self.screenshots = screenshots
        self.passed = 0
        self.shots = 0

    def ok(self, name: str, condition: Any, detail: str = "") -> None:
        if not condition:
            raise CheckFailed(f"{name}: {detail}" if detail else name)
        self.passed += 1
        print(f"ok   {name}" + (f" ({detail})" if detail else ""), flush=True)

    def by_id(self, test_id: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{test_id}"]')

    def wait(self, what: str, condition: Callable[[WebDriver], Any], seconds: float = 15) -> Any:
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(condition)
        except TimeoutException:
            raise CheckFailed(f"{what}: not within {seconds:.0f} s; event log: {self.log_text()[:600]!r}") from None

    def log_entries(self, selector: str = "li") -> List[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, f'[data-testid="event-log"] {selector}')

    def log_text(self) -> str:
        try:
            return " | ".join(entry.text for entry in self.log_entries())
        except Exception:
            return "(unreadable)"

    def screenshot(self, name: str, whole_page: bool = False) -> None:
        """The window (1280 × 900), or with `whole_page` the page as tall as its content."""
        if self.screenshots is None:
            return
        self.shots += 1
        path = self.screenshots / f"{self.shots:02d}-{name}.png"
        if whole_page:
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(1280, max(900, min(int(height) + 40, 8000)))
        self.driver.save_screenshot(str(path))
        if whole_page:
            self.driver.set_window_size(1280, 900)
        print(f"     screenshot {path}", flush=True)

    def set_pattern_text(self, text: str) -> None:
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
            self.by_id("pattern-text"), text)

    def service_status(self) -> dict:
        parts = urlsplit(self.url)
        with urllib.request.urlopen(urlunsplit((parts.scheme, parts.netloc, "/api/status", parts.query, "")),
                                    timeout=10) as response:
            return json.loads(response.read())


def run(run: Run) -> None:
    driver = run.driver
    parts = urlsplit(run.url)  # the API page; the studio is at / (studio_e2e.py)
    driver.get(urlunsplit((parts.scheme, parts.netloc, "/web/api.html", parts.query, "")))
    run.ok("the page loads", "Thrum service" in driver.title, driver.title)

    run.wait("connected", lambda d: run.by_id("connection").get_attribute("data-state") == "connected")
    run.ok("the page connects to the WebSocket and says hello", "client" in run.by_id("connection").text,
           run.by_id("connection").text)
    run.ok("the board is shown by name", "sim" in run.by_id("boards").text, run.by_id("boards").text)
    run.wait("trace.subscribe answered", lambda d: any("trace.subscribe" in e.text for e in run.log_entries()))
    run.screenshot("connected")

    # The default pattern: load, play, see it finish.
    text = run.by_id("pattern-text").get_attribute("value")
    run.ok("the text area holds a default pattern", '"Pattern"' in text, f"{len(text)} characters")
    run.by_id("load").click()
    run.wait("pattern loaded", lambda d: run.by_id("play").is_enabled())
    run.ok("load shows the diagnostics", run.by_id("diagnostics").get_attribute("data-state") == "clean",
           run.by_id("diagnostics").text)
    run.ok("load shows the summary", "s (" in run.by_id("pattern-summary").text, run.by_id("pattern-summary").text)
    run.wait("the plot", lambda d: run.by_id("plot").is_displayed()
             and d.execute_script("return arguments[0].naturalWidth", run.by_id("plot")) > 0)
    run.ok("the plot from POST /api/plot is shown", True)
    run.by_id("play").click()
    finished = run.wait("player.finished in the event log",
                        lambda d: run.log_entries('li[data-event="player.finished"]'), seconds=20)
    run.ok("Play: the event log shows player.finished", finished, finished[0].text)
    peak = float(run.by_id("trace").get_attribute("data-peak") or 0)
    if peak == 0:  # the last trace events may come just after the end
        run.wait("trace samples", lambda d: float(run.by_id("trace").get_attribute("data-peak") or 0) > 0, 5)
        peak = float(run.by_id("trace").get_attribute("data-peak") or 0)
    run.ok("the trace view drew what the board rendered", peak > 0, f"peak {peak}")
    run.screenshot("played")

    # A longer pattern, and the intensity slider dragged while it plays.
    Select(run.by_id("example")).select_by_value("hum")
    run.ok("choosing an example fills the text area", "Five seconds" in run.by_id("pattern-text").get_attribute("value"))
    run.by_id("load").click()
    run.wait("hum loaded", lambda d: "hum" in run.by_id("pattern-summary").text and run.by_id("play").is_enabled())
    run.by_id("play").click()
    run.wait("player.start logged", lambda d: any("player.start" in e.text for e in run.log_entries()))
    slider = run.by_id("intensity")
    before = run.by_id("intensity-value").text
    width = slider.size["width"]
    actions = ActionChains(driver, duration=20)
    actions.click_and_hold(slider)  # the middle: 0.5
    for _ in range(12):
        actions.move_by_offset(-width // 30, 0)
    for _ in range(6):
        actions.move_by_offset(width // 30, 0)
    actions.release().perform()
    after = run.by_id("intensity-value").text
    sent = int(run.by_id("realtime-count").text or 0)
    run.ok("dragging the intensity slider streams real-time parameters", after != before and sent >= 5,
           f"{before} -> {after}, {sent} sent")
    run.wait("the service counted them", lambda d: any(
        c.get("name") == "web page" and c.get("realtimeSent", 0) + c.get("realtimeReplaced", 0) >= sent
        for c in run.service_status().get("clients", [])), 5)
    me = next(c for c in run.service_status()["clients"] if c.get("name") == "web page")
    run.ok("the service received every slider value", True,
           f"status: sent {me['realtimeSent']}, replaced {me['realtimeReplaced']}")
    run.screenshot("slider")
    run.by_id("stop").click()
    run.wait("player.stop logged", lambda d: any("player.stop" in e.text for e in run.log_entries()))
    errors = [e.text for e in run.log_entries("li.log-error")]
    run.ok("no error in the event log", not errors, "; ".join(errors))

    # A broken pattern: its diagnostics, and no player.
    run.set_pattern_text(BROKEN)
    run.by_id("load").click()
    run.wait("diagnostics of the broken pattern",
             lambda d: run.by_id("diagnostics").get_attribute("data-state") == "errors")
    diagnostics = run.by_id("diagnostics").text
    run.ok("a broken pattern shows its errors", "negative" in diagnostics and not run.by_id("play").is_enabled(),
           diagnostics)
    run.screenshot("invalid")

    # Nothing the CSP refused, no script error (a refused inline script or foreign load shows here).
    severe = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    run.ok("the browser console has no error", not severe, json.dumps(severe)[:800])
    run.screenshot("whole-page", whole_page=True)


def start_browser() -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A session of its own, so the watchdog can end chromedriver and the browser together.
    service = Service(CHROMEDRIVER, popen_kw={"start_new_session": True})
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def drive(url: str, screenshots: Optional[Path], timeout: float,
          body: Callable[[WebDriver, str, Optional[Path]], "Run"]) -> int:
    """Starts the browser under a watchdog, runs `body` (which makes its Run and drives it) and
    reports; what studio_e2e.py shares. Exit status: 0 when every check passed, 2 without a browser."""
    if screenshots:
        screenshots.mkdir(parents=True, exist_ok=True)
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            print(f"FAIL {path} is missing: run scripts/ensure-deps", flush=True)
            return 2
    os.environ.setdefault("SE_AVOID_STATS", "true")  # Selenium Manager: no usage statistics
    driver_session: List[int] = []

    def watchdog() -> None:
        print(f"FAIL timed out after {timeout:.0f} s; ending the browser", flush=True)
        faulthandler.dump_traceback(all_threads=True)
        for pgid in driver_session:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
        os._exit(1)

    timer = threading.Timer(timeout, watchdog)
    timer.daemon = True
    timer.start()
    started = time.monotonic()
    driver = None
    holder: List[Run] = []
    passed = False
    try:
        driver = start_browser()
        driver_session.append(os.getpgid(driver.service.process.pid))

        # Each Run made is remembered, for the failure screenshot.
        original_init = Run.__init__

        def remember(self, *arguments, **keywords):
            original_init(self, *arguments, **keywords)
            holder.append(self)

        Run.__init__ = remember
        try:
            body(driver, url, screenshots)
        finally:
            Run.__init__ = original_init
        passed = True
    except CheckFailed as failure:
        print(f"FAIL {failure}", flush=True)
    except Exception:
        print("FAIL " + traceback.format_exc(), flush=True)
    finally:
        if driver is not None:
            if not passed:  # what the page looked like, and what its console said
                try:
                    if holder:
                        holder[-1].screenshot("failure")
                    for entry in driver.get_log("browser"):
                        print(f"     console {entry.get('level')}: {entry.get('message')}", flush=True)
                except Exception:
                    pass
            try:
                driver.quit()
            except Exception:
                pass
        for pgid in driver_session:  # whatever quit left behind
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
        timer.cancel()
    count = holder[-1].passed if holder else 0
    if passed:
        print(f"browser: all {count} checks passed in {time.monotonic() - started:.1f} s", flush=True)
        return 0
    print(f"browser: failed after {count} checks passed", flush=True)
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the URL `thrum serve` printed")
    parser.add_argument("--screenshots", type=Path, help="a folder for the screenshots")
    parser.add_argument("--timeout", type=float, default=120, help="seconds for the whole run")
    options = parser.parse_args()
    return drive(options.url, options.screenshots, options.timeout,
                 lambda driver, url, shots: run(Run(url, driver, shots)))


if __name__ == "__main__":
    sys.exit(main())
