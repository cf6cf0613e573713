"""A small driver for Debian's chromium over the DevTools protocol, for the page tests and the page benchmark.

Chromium started with --remote-debugging-pipe reads the protocol's JSON messages from file descriptor 3 and writes
its own to 4, each ended by a NUL byte: no socket, no port, no library beyond Python's. The driver opens one tab,
collects what the page says on its console or throws, and which requests it makes; it presses keys and takes
screenshots as a reader's browser would."""
import base64
import fcntl
import json
import os
import select
import subprocess
import time


class Browser:
    def __init__(self, chromium, width=1366, height=900):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def onto_3_and_4():
            # The pipes may already be 3 or 4, and Python opens them close-on-exec (dup2 of a descriptor onto
            # itself would keep that flag): both go out of the way first, then onto 3 and 4, inheritable.
            reading, writing = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w))
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self._process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
             "--remote-debugging-pipe", "--no-first-run", "--user-data-dir=" + os.path.join(
                 os.environ.get("TMPDIR", "/tmp"), f"lifeline-chromium-{os.getpid()}"), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=onto_3_and_4, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer, self._next_id, self.events = b"", 0, []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable")
        self.size(width, height)

    def close(self):
        self._process.kill()
        self._process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)

    def _read(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError("chromium said nothing for %s s" % timeout)
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, timeout=60, **params):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read(timeout)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def send(self, method, **params):
        """A command to the tab."""
        return self.call(method, session=self._session, **params)

    def size(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def scheme(self, name):
        """Emulates the reader's scheme: "light", "dark" or "high contrast" (more contrast asked, over light)."""
        contrast = "more" if name == "high contrast" else "no-preference"
        self.send("Emulation.setEmulatedMedia", features=[
            {"name": "prefers-color-scheme", "value": "dark" if name == "dark" else "light"},
            {"name": "prefers-contrast", "value": contrast}])

    def open(self, url, ready="typeof views !== 'undefined' && views !== undefined"):
        """Loads url and waits until the expression ready is true in the page (the page reads its run
        asynchronously, after the load event)."""
        self.events.clear()
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + 30
        while not self.evaluate(f"document.readyState === 'complete' && ({ready})"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} was not ready: {ready}")
            time.sleep(0.02)

    def evaluate(self, expression):
        reply = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def press(self, key, code, key_code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code,
                      **({"text": key} if kind == "keyDown" and len(key) == 1 else {}))

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def pump(self, seconds):
        """Lets the page run for a while, collecting what it says."""
        self.evaluate(f"new Promise(done => setTimeout(done, {int(seconds * 1000)}))")

    def console(self):
        """What the page said on its console, threw, or logged as an error since it was opened."""
        said = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled":
                said.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                said.append(params["exceptionDetails"].get("exception", {}).get("description", "an exception"))
            elif method == "Log.entryAdded":
                said.append(params["entry"].get("text", ""))
        return said

    def requests(self):
        """Every URL the page asked for since it was opened."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]
