#!/usr/bin/env python3
"""End to end: Examples/clients/python/thrum_client.py against a running `thrum serve`.

Usage: python_client_e2e.py URL [--timeout SECONDS]
URL is the first line `thrum serve` prints. Prints one line per check (`ok   …` or `FAIL …`) and
exits 0 only when every check passed; a global timeout (default 90 s) ends it whatever hangs.
Tests/ThrumServiceTests/ClientEndToEndTests.swift runs it against the simulator and a pty board.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import json
import sys
import time
import traceback
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, List
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
sys.path.insert(0, str(ROOT / "Examples/clients/python"))
from thrum_client import ThrumClient, ThrumError  # noqa: E402

SLICE = ROOT / "Examples/slice.ahap"
#: An AHAP with an error: a transient at a negative time.
BROKEN = '{"Version": 1, "Pattern": [{"Event": {"Time": -1, "EventType": "HapticTransient"}}]}'
REALTIME_UPDATES = 200


class CheckFailed(Exception):
    pass


class Checks:
    def __init__(self) -> None:
        self.passed = 0

    def ok(self, name: str, condition: Any, detail: str = "") -> None:
        if not condition:
            raise CheckFailed(f"{name}: {detail}" if detail else name)
        self.passed += 1
        print(f"ok   {name}" + (f" ({detail})" if detail else ""), flush=True)


async def expect_error(thrum: ThrumClient, type: str, **fields: Any) -> ThrumError:
    try:
        result = await thrum.request(type, **fields)
    except ThrumError as error:
        return error
    raise CheckFailed(f"{type} {json.dumps(fields)[:120]} succeeded ({result}); expected an error reply")


def http(url: str, path: str, body: bytes | None = None) -> tuple[int, Dict[str, Any]]:
    """GET (or POST `body` to) `path` of the service; the status and the JSON answer. The URL's
    token, when it has one, goes as `Authorization: Bearer` (the WebSocket took it as `?token=`)."""
    parts = urlsplit(url)
    token = parse_qs(parts.query).get("token", [None])[0]
    request = urllib.request.Request(f"{parts.scheme}://{parts.netloc}{path}", data=body)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def run(url: str, checks: Checks) -> None:
    async with ThrumClient(url, name="python e2e", timeout=15) as thrum:
        info = thrum.info
        checks.ok("hello", info.get("protocol") == 1 and info.get("service") == "thrum"
                  and isinstance(info.get("client"), int), json.dumps(info)[:200])
        boards = info.get("boards") or []
        checks.ok("hello lists a present board", boards and boards[0].get("present"),
                  ", ".join(f"{b.get('name')}: {b.get('board')} {b.get('firmware')}" for b in boards))
        now = await thrum.time()
        checks.ok("time", isinstance(now, (int, float)) and now >= info["now"], f"now {now:.3f} s")

        loaded = await thrum.load_pattern(SLICE)
        summary = loaded.get("summary") or {}
        checks.ok("pattern.load slice.ahap", isinstance(loaded.get("pattern"), int)
                  and summary.get("duration") == 0.5 and len(summary.get("events", [])) == 2,
                  f"pattern {loaded.get('pattern')}, {summary.get('duration')} s, "
                  f"{len(summary.get('events', []))} events, {summary.get('timelineBytes')} bytes")

        error = await expect_error(thrum, "pattern.load", text=BROKEN, name="broken")
        diagnostics = error.details.get("diagnostics") or []
        checks.ok("pattern.load of a broken pattern answers invalid_pattern with its diagnostics",
                  error.code == "invalid_pattern" and error.field == "text" and diagnostics,
                  f"{error.code}: {error.message}")

        player = await thrum.create_player(loaded["pattern"])
        checks.ok("player.create", isinstance(player, int), f"player {player}")

        subscription = await thrum.subscribe_trace(rate=50)
        checks.ok("trace.subscribe", subscription.get("channels"), json.dumps(subscription))

        # Play, streaming real-time intensity while it plays; collect what arrives meanwhile.
        await thrum.start(player)
        sent_at = time.monotonic()
        for step in range(REALTIME_UPDATES):
            await thrum.parameters(player, intensity=0.5 + 0.5 * (step % 20) / 19)
            if step % 10 == 9:
                await asyncio.sleep(0.02)
        stream_seconds = time.monotonic() - sent_at
        acknowledged = await thrum.request("player.parameters", player=player, parameters={"intensity": 1})
        checks.ok(f"{REALTIME_UPDATES} real-time intensity updates sent, one more acknowledged",
                  acknowledged == {}, f"{stream_seconds:.2f} s")

        events: List[Dict[str, Any]] = []
        deadline = time.monotonic() + 10
        finished = None
        while finished is None and time.monotonic() < deadline:
            try:
                message = await thrum.next_event(timeout=deadline - time.monotonic())
            except asyncio.TimeoutError:
                break
            events.append(message)
            if message.get("event") == "player.finished" and message.get("player") == player:
                finished = message
        errors = [m for m in events if m.get("type") == "error"]
        checks.ok("no error while streaming", not errors, json.dumps(errors)[:300])
        checks.ok("player.finished", finished is not None,
                  f"at {finished['time']:.3f} s" if finished else f"not within 10 s; saw {len(events)} messages")

        status = await thrum.request("status")
        me = next((c for c in status.get("clients", []) if c.get("id") == info["client"]), {})
        merged = me.get("realtimeSent", 0) + me.get("realtimeReplaced", 0)
        checks.ok("status counts every real-time value as sent or replaced by a newer one",
                  me.get("name") == "python e2e" and me.get("realtimeSent", 0) >= 1
                  and merged == REALTIME_UPDATES + 1,
                  f"sent {me.get('realtimeSent')}, replaced {me.get('realtimeReplaced')}, "
                  f"of {REALTIME_UPDATES + 1}")

        # Trace: the board rendered something while the pattern played.
        traces = [m for m in events if m.get("event") == "trace"]
        deadline = time.monotonic() + 3
        while not any(max(m.get("samples") or [0]) > 0 for m in traces) and time.monotonic() < deadline:
            try:
                message = await thrum.next_event(timeout=deadline - time.monotonic())
            except asyncio.TimeoutError:
                break
            if message.get("event") == "trace":
                traces.append(message)
        peak = max((max(m.get("samples") or [0]) for m in traces), default=0)
        samples = sum(len(m.get("samples") or []) for m in traces)
        well_formed = all(isinstance(m.get("start"), (int, float)) and m.get("tick", 0) > 0 for m in traces)
        checks.ok("trace events show the rendered pattern", traces and peak > 0 and well_formed,
                  f"{len(traces)} events, {samples} samples, peak {peak}")
        await thrum.unsubscribe_trace()

        # A start at a time on the service's clock.
        at = await thrum.time() + 0.3
        await thrum.start(player, at=at)
        finished = await thrum.wait_for("player.finished", timeout=10, player=player)
        checks.ok("player.start at a service time: finished after that time plus the pattern",
                  finished["time"] >= at + 0.5 - 0.01, f"start at {at:.3f}, finished at {finished['time']:.3f}")

        # Errors name the field at fault and leave the connection usable.
        error = await expect_error(thrum, "player.parameters", player=player, parameters={"intensity": "loud"})
        checks.ok("a mistyped field is named", error.code == "bad_request"
                  and error.field == "parameters.intensity", str(error))
        error = await expect_error(thrum, "player.start")
        checks.ok("a missing field is named", error.code == "bad_request" and error.field == "player", str(error))
        error = await expect_error(thrum, "player.start", player=99999)
        checks.ok("an unknown player is unknown_id", error.code == "unknown_id" and error.field == "player",
                  str(error))
        error = await expect_error(thrum, "player.jump", player=player)
        checks.ok("an unknown type is unknown_type", error.code == "unknown_type" and error.field == "type",
                  str(error))
        error = await expect_error(thrum, "hello", version=2)
        checks.ok("hello with another version is version_mismatch",
                  error.code == "version_mismatch" and error.details.get("supported") == [1], str(error))
        await thrum.send_realtime("player.parameters", player=player, parameters={"loudness": 1})
        unsolicited = await next_error(thrum)
        checks.ok("a real-time value without id still gets an error, id null, naming the field",
                  unsolicited.get("id") is None and unsolicited.get("request") == "player.parameters"
                  and unsolicited["error"].get("field") == "parameters.loudness",
                  json.dumps(unsolicited))
        await thrum.send_text("{not json")
        unsolicited = await next_error(thrum)
        checks.ok("a message that is not JSON is bad_json, id null",
                  unsolicited["error"].get("code") == "bad_json" and unsolicited.get("id") is None,
                  unsolicited["error"].get("message", ""))
        checks.ok("the connection still answers after the errors", await thrum.time() > at)

        await thrum.request("player.destroy", player=player)
        await thrum.request("pattern.free", pattern=loaded["pattern"])
        checks.ok("player.destroy and pattern.free", True)

    # The HTTP API, on the same URL (and token).
    status, boards = http(url, "/api/boards")
    checks.ok("GET /api/boards", status == 200 and boards.get("boards"), f"HTTP {status}")
    status, answer = http(url, "/api/validate?name=broken", BROKEN.encode())
    checks.ok("POST /api/validate of a broken pattern is 422 with diagnostics",
              status == 422 and answer.get("valid") is False and answer.get("diagnostics"), f"HTTP {status}")


async def next_error(thrum: ThrumClient, timeout: float = 5) -> Dict[str, Any]:
    """The next error message among the events (errors that answered no request)."""
    async def find() -> Dict[str, Any]:
        while True:
            message = await thrum.events.get()
            if message.get("type") == "error":
                return message
    return await asyncio.wait_for(find(), timeout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the URL `thrum serve` printed")
    parser.add_argument("--timeout", type=float, default=90, help="seconds for the whole run")
    options = parser.parse_args()
    # Whatever blocks, the process ends: tracebacks of every thread, then exit.
    faulthandler.dump_traceback_later(options.timeout + 15, exit=True)
    checks = Checks()
    started = time.monotonic()
    try:
        asyncio.run(asyncio.wait_for(run(options.url, checks), options.timeout))
    except CheckFailed as failure:
        print(f"FAIL {failure}", flush=True)
    except asyncio.TimeoutError:
        print(f"FAIL timed out after {options.timeout:.0f} s (the check after the last `ok` hung)", flush=True)
    except Exception:
        print("FAIL " + traceback.format_exc(), flush=True)
    else:
        print(f"python client: all {checks.passed} checks passed in {time.monotonic() - started:.1f} s")
        return 0
    print(f"python client: failed after {checks.passed} checks passed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
