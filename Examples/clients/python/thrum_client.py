"""A small asyncio client for `thrum serve` (Protocol/SERVICE.md).

One WebSocket, JSON messages. Requests carry an id and are awaited until their reply; real-time
values (`player.parameters` / `player.pan` without `at`) go without one; everything else the service
sends (events, and errors that answer no pending request) lands in `events`, an asyncio queue, and
is passed to an optional callback.

    async with ThrumClient("http://127.0.0.1:7878/") as thrum:
        pattern = await thrum.load_pattern("Examples/slice.ahap")
        player = await thrum.create_player(pattern["pattern"])
        await thrum.start(player)
        await thrum.wait_for("player.finished", player=player)

Needs Python 3.10 or later and `websockets` (pip install websockets).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Union
from urllib.parse import urlsplit, urlunsplit

try:  # websockets 13 and later
    from websockets.asyncio.client import connect as _ws_connect
except ImportError:  # older releases: the legacy client has the same call
    from websockets import connect as _ws_connect  # type: ignore[no-redef]

__all__ = ["ThrumClient", "ThrumError", "websocket_url"]

Message = Dict[str, Any]
EventCallback = Callable[[Message], None]
#: The service takes frames up to 16 MiB (SERVICE.md §8); its replies can be as large (flash.read).
MAX_MESSAGE_BYTES = 16 << 20


class ThrumError(Exception):
    """An error reply: `code` is stable (`bad_request`, `unknown_id`, …, SERVICE.md §4), `message`
    is for people, `field` names the request field at fault (`parameters.intensity`) when one is."""

    def __init__(self, error: Message, request: Optional[str] = None):
        self.code: str = error.get("code", "unknown")
        self.message: str = error.get("message", "")
        self.field: Optional[str] = error.get("field")
        self.details: Message = error.get("details") or {}
        self.request = request
        where = f" (field {self.field})" if self.field else ""
        super().__init__(f"{request or 'request'}: {self.code}: {self.message}{where}")


def websocket_url(url: str) -> str:
    """The WebSocket address of the service at `url`: the URL `thrum serve` prints
    (`http://127.0.0.1:7878/?token=T`) becomes `ws://127.0.0.1:7878/ws?token=T`. A ws:// or
    wss:// URL is taken as it is."""
    parts = urlsplit(url)
    if parts.scheme in ("ws", "wss"):
        return url
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme)
    if scheme is None:
        raise ValueError(f"not a thrum serve URL: {url!r} (expected http://HOST:PORT/)")
    return urlunsplit((scheme, parts.netloc, "/ws", parts.query, ""))


def _at(at: Optional[float]) -> Message:
    """The `at` field: absent means as soon as possible."""
    return {} if at is None else {"at": at}


class ThrumClient:
    """One connection to `thrum serve`. Use `async with ThrumClient(url)` (connects and says
    hello), or `await connect(url)` and `await close()`."""

    def __init__(self, url: Optional[str] = None, *, name: str = "python",
                 on_event: Optional[EventCallback] = None, timeout: float = 10.0,
                 max_queued_events: int = 10_000):
        self.url = url
        self.name = name
        self.on_event = on_event
        #: Seconds a request waits for its reply before `asyncio.TimeoutError`.
        self.timeout = timeout
        #: Events and unsolicited errors, oldest first; past `max_queued_events` the oldest go.
        self.events: asyncio.Queue[Message] = asyncio.Queue(maxsize=max_queued_events)
        #: `hello`'s result once connected: `client` (this client's id), `now`, `boards`.
        self.info: Message = {}
        self._socket: Any = None
        self._reader: Optional[asyncio.Task[None]] = None
        self._pending: Dict[int, asyncio.Future[Message]] = {}
        self._ids = itertools.count(1)

    # -- connection --------------------------------------------------------------------------

    async def connect(self, url: Optional[str] = None, *, hello: bool = True) -> Message:
        """Opens the WebSocket and, unless `hello=False`, says hello; returns hello's result."""
        self.url = url or self.url
        if not self.url:
            raise ValueError("no URL: pass the one `thrum serve` printed")
        self._socket = await _ws_connect(websocket_url(self.url), max_size=MAX_MESSAGE_BYTES)
        self._reader = asyncio.create_task(self._read())
        if hello:
            self.info = await self.hello()
        return self.info

    async def close(self) -> None:
        """Closes the connection; the service stops this client's players."""
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        self._socket = self._reader = None

    async def __aenter__(self) -> "ThrumClient":
        await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- messages ----------------------------------------------------------------------------

    async def request(self, type: str, **fields: Any) -> Message:
        """Sends request `type` with `fields` and returns the reply's `result`; raises ThrumError
        for an error reply, asyncio.TimeoutError after `timeout` seconds."""
        id = next(self._ids)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._pending[id] = future
        try:
            await self._send({"id": id, "type": type, **fields})
            return await asyncio.wait_for(future, self.timeout)
        finally:
            self._pending.pop(id, None)

    async def send_realtime(self, type: str, **fields: Any) -> None:
        """Sends a message with no id: no reply when it succeeds (an error still arrives, in
        `events`). For real-time values, which the service merges, newest wins (SERVICE.md §7)."""
        await self._send({"type": type, **fields})

    async def send_text(self, text: str) -> None:
        """Sends `text` as it is (for testing how the service answers malformed messages)."""
        if self._socket is None:
            raise ConnectionError("not connected: call connect() first")
        await self._socket.send(text)

    async def next_event(self, timeout: Optional[float] = None) -> Message:
        """The next event (or unsolicited error) from the queue."""
        return await asyncio.wait_for(self.events.get(), timeout)

    async def wait_for(self, event: str, timeout: Optional[float] = 10.0, **match: Any) -> Message:
        """Takes events from the queue until one named `event` whose fields equal `match`
        (`wait_for("player.finished", player=3)`); the others are dropped."""
        async def find() -> Message:
            while True:
                message = await self.events.get()
                if message.get("event") == event and all(message.get(k) == v for k, v in match.items()):
                    return message
        return await asyncio.wait_for(find(), timeout)

    async def _send(self, message: Message) -> None:
        await self.send_text(json.dumps(message))

    async def _read(self) -> None:
        error: BaseException = ConnectionError("the service closed the connection")
        try:
            async for text in self._socket:
                self._dispatch(json.loads(text))
        except Exception as failure:  # the connection broke: fail what waits, below
            error = ConnectionError(f"connection lost: {failure}")
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)

    def _dispatch(self, message: Message) -> None:
        future = self._pending.get(message.get("id")) if message.get("type") in ("reply", "error") else None
        if future is not None and not future.done():
            if message["type"] == "reply":
                future.set_result(message.get("result") or {})
            else:
                future.set_exception(ThrumError(message.get("error") or {}, message.get("request")))
            return
        if self.events.full():  # a client that does not read loses the oldest, as the service does
            self.events.get_nowait()
        self.events.put_nowait(message)
        if self.on_event is not None:
            self.on_event(message)

    # -- helpers -----------------------------------------------------------------------------

    async def hello(self, version: int = 1) -> Message:
        return await self.request("hello", version=version, client=self.name)

    async def time(self) -> float:
        """The service's clock now (seconds): the clock every `at` is on."""
        return (await self.request("time"))["now"]

    async def load_pattern(self, path: Union[str, Path], name: Optional[str] = None,
                           strict: bool = False) -> Message:
        """Loads an AHAP or .haptic file: `pattern` (id), `diagnostics`, `summary`. A pattern with
        errors raises ThrumError `invalid_pattern` (its `details["diagnostics"]` lists them)."""
        path = Path(path)
        return await self.load_text(path.read_text(encoding="utf-8"), name or path.stem, strict)

    async def load_text(self, text: str, name: str = "pattern", strict: bool = False) -> Message:
        return await self.request("pattern.load", text=text, name=name, strict=strict)

    async def create_player(self, pattern: int, locality: Optional[str] = None) -> int:
        fields: Message = {"pattern": pattern}
        if locality is not None:
            fields["locality"] = locality
        return (await self.request("player.create", **fields))["player"]

    async def start(self, player: int, at: Optional[float] = None) -> None:
        """Starts `player` now, or at `at` on the service's clock."""
        await self.request("player.start", player=player, **_at(at))

    async def stop(self, player: int, at: Optional[float] = None) -> None:
        await self.request("player.stop", player=player, **_at(at))

    async def parameters(self, player: int, **values: float) -> None:
        """Real-time dynamic parameters (`intensity=0.5, sharpness=0.2`): sent at once, no reply,
        newest wins. For a scheduled, acknowledged change use
        `request("player.parameters", player=..., parameters={...}, at=t)`."""
        await self.send_realtime("player.parameters", player=player, parameters=values)

    async def pan(self, player: int, position: float) -> None:
        """Real-time pan: 0 the locality's first channel, 1 its last."""
        await self.send_realtime("player.pan", player=player, position=position)

    async def subscribe_trace(self, rate: Optional[float] = None) -> Message:
        """Subscribes to `trace` events (what the boards rendered); returns `rate` and `channels`."""
        return await self.request("trace.subscribe", **({} if rate is None else {"rate": rate}))

    async def unsubscribe_trace(self) -> None:
        await self.request("trace.unsubscribe")
