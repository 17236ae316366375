"""Headless Chromium driven over the DevTools protocol, and the site served on localhost:
the standard library only (a WebSocket client of a few lines), for the page's tests and
tools/web_parity.py.

    with serve(site, isolate=True) as url, Chromium() as browser:
        browser.open(url + "detector.html")
        browser.evaluate("kata.ready")
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--remote-debugging-port=0",
)
TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
}


def chromium() -> str | None:
    """The Chromium on this machine, if any."""
    return next((found for name in CHROMIUM if (found := shutil.which(name))), None)


class BrowserError(Exception):
    """The page threw, or the browser said no."""


class _Socket:
    """A WebSocket client's side, enough for the DevTools protocol: text frames, masked."""

    def __init__(self, url: str) -> None:
        rest = url.removeprefix("ws://")
        address, _, path = rest.partition("/")
        host, _, port = address.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /{path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(4096)
        head, _, self.pending = response.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise BrowserError(f"no WebSocket: {head[:200]!r}")

    def send(self, text: str) -> None:
        data = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(data))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def receive(self, seconds: float) -> str:
        self.sock.settimeout(seconds)
        message = b""
        while True:
            first, second = self._exactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._exactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._exactly(8))[0]
            payload = self._exactly(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise BrowserError("the browser closed the connection")
            if opcode in (0x9, 0xA):
                continue  # ping, pong
            message += payload
            if first & 0x80:
                return message.decode()

    def _exactly(self, size: int) -> bytes:
        while len(self.pending) < size:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise BrowserError("the browser closed the connection")
            self.pending += chunk
        data, self.pending = self.pending[:size], self.pending[size:]
        return data

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


class Chromium:
    """One headless browser with a fresh profile, one page, driven over DevTools."""

    def __init__(self, width: int = 1440, height: int = 1000) -> None:
        found = chromium()
        if found is None:
            raise BrowserError("no Chromium on this machine (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="kata-chromium-")
        self.process = subprocess.Popen(
            [
                found,
                *FLAGS,
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.ids = iter(range(1, 1 << 30))
        self.console: list[str] = []
        self.socket = _Socket(self._page_socket())
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call(
            "Target.setAutoAttach", autoAttach=True, waitForDebuggerOnStart=False, flatten=True
        )

    def _page_socket(self) -> str:
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.is_file() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise BrowserError("Chromium did not start")
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as got:
                targets = json.load(got)
            pages = [t for t in targets if t.get("type") == "page"]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
            time.sleep(0.1)

    def call(self, method: str, seconds: float = 60, **params: Any) -> Any:
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"{method}: no answer within {seconds} s")
            try:
                message = json.loads(self.socket.receive(left))
            except TimeoutError:
                raise BrowserError(f"{method}: no answer within {seconds} s") from None
            if message.get("id") == number:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._event(message)

    def _event(self, message: dict[str, Any]) -> None:
        if message.get("method") == "Target.attachedToTarget":  # a worker: hear its console
            session = message["params"]["sessionId"]
            for method in ("Runtime.enable", "Runtime.runIfWaitingForDebugger"):
                number = next(self.ids)
                request = {"id": number, "method": method, "sessionId": session}
                self.socket.send(json.dumps(request))
        elif message.get("method") == "Runtime.consoleAPICalled":
            args = message["params"].get("args", [])
            self.console.append(" ".join(str(a.get("value", a.get("description"))) for a in args))
        elif message.get("method") == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.console.append(f"exception: {details.get('exception', {}).get('description')}")

    def evaluate(self, expression: str, seconds: float = 60) -> Any:
        """The expression's value (awaited if a promise), as JSON; BrowserError if it threw."""
        result = self.call(
            "Runtime.evaluate",
            seconds + 5,
            expression=expression,
            awaitPromise=True,
            returnByValue=True,
            timeout=int(seconds * 1000),
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise BrowserError(f"{expression[:80]}: {text}")
        return result["result"].get("value")

    def open(self, url: str, ready: str = "true", seconds: float = 60) -> None:
        """Load `url`, then wait until `ready` (an expression) is true in the page."""
        self.call("Page.navigate", url=url)
        self.wait_for(ready, seconds)

    def wait_for(self, expression: str, seconds: float = 60) -> Any:
        deadline = time.monotonic() + seconds
        while True:
            with contextlib.suppress(BrowserError):
                value = self.evaluate(f"(() => {{ try {{ return {expression}; }} catch {{}} }})()")
                if value:
                    return value
            if time.monotonic() > deadline:
                raise BrowserError(f"not true within {seconds} s: {expression}")
            time.sleep(0.1)

    def screenshot(self, path: Path) -> None:
        shot = self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        if hasattr(self, "socket"):
            self.socket.close()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class _Handler(http.server.SimpleHTTPRequestHandler):
    isolate = True
    extensions_map = TYPES

    def end_headers(self) -> None:
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(site: Path, *, isolate: bool = True) -> Iterator[str]:
    """The site served on localhost (a free port) in a thread; its URL, with a slash.  With
    `isolate`, every response carries the COOP and COEP headers; without, the site's
    service worker must add them."""
    handler = type("Handler", (_Handler,), {"isolate": isolate})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
