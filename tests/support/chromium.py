"""Headless Chromium (Debian's chromium) driven over the DevTools protocol
on a pipe (--remote-debugging-pipe): no port, no WebSocket library. Used by
tests/web_page.py and bench/web_bench.py.

    with Browser() as b:
        b.open("file:///.../index.html", width=1280)
        b.evaluate("document.title")
        b.requests  # every URL the page asked for
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self):
        if CHROMIUM is None:
            raise RuntimeError("chromium is not installed")
        self._scratch = tempfile.TemporaryDirectory()
        # Chromium reads commands on fd 3 and writes answers on fd 4.
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        os.set_inheritable(to_browser_r, True)
        os.set_inheritable(from_browser_w, True)
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--remote-debugging-pipe", f"--user-data-dir={self._scratch.name}/profile",
                "about:blank"]
        self._process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: (os.dup2(to_browser_r, 3), os.dup2(from_browser_w, 4)), pass_fds=(3, 4, to_browser_r,
                                                                                                   from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self._session = None
        self.events = []
        target = next(t for t in self.send("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self._session = self.send("Target.attachToTarget", targetId=target["targetId"], flatten=True)["sessionId"]
        self.send("Network.enable")
        self.send("Page.enable")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self._session = None
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._scratch.cleanup()

    def _message(self, timeout=120):
        while b"\0" not in self._buffer:
            if not select.select([self._from_browser], [], [], timeout)[0]:
                raise RuntimeError(f"chromium said nothing for {timeout} s")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buffer += chunk
        text, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(text)

    def send(self, method, **params):
        """Sends one command and returns its result; events that arrive
        meanwhile are kept in `events`."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if self._session:
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, method):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._message())

    def open(self, url, width=1280, height=900, dark=False):
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=width < 600)
        self.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme",
                                                           "value": "dark" if dark else "light"}])
        # Through a blank page, so that a link to the page open now (another
        # fragment) loads it again.
        for address in ("about:blank", url):
            self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
            self.send("Page.navigate", url=address)
            self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        """The value of a JavaScript expression (a promise is awaited)."""
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    @property
    def requests(self):
        """Every URL the page requested (Network.requestWillBeSent)."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]
