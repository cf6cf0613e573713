"""One `lifeline serve --headless --clock manual` on a free port, and the calls a test makes to it.

Standard library only; `client()` needs boto3 (Debian's python3-boto3, or pip's)."""
import json
import os
import re
import shutil
import subprocess
import urllib.error
import urllib.request


class LifelineError(RuntimeError):
    """The server refused a control call (its JSON error, field and message), or could not start."""


class LifelineSQS:
    """A running endpoint: `endpoint_url`, `client()`, `advance("30s")`, `now_ms`, `messages(queue_url)`, `lanes()`,
    `reset()`, `timeline()`."""

    def __init__(self, binary=None, history="1d", port=0):
        binary = binary or os.environ.get("LIFELINE") or shutil.which("lifeline")
        if not binary:
            raise LifelineError("lifeline is not on the PATH: install it, set LIFELINE, or pass --lifeline-binary")
        # The run is kept (--history) so a failed test's timeline can be read back. Port 0: a free one (a team whose
        # policy fixes ports gives one).
        self._process = subprocess.Popen(
            [binary, "serve", "--headless", "--port", str(port), "--clock", "manual", "--history", history],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        banner = self._process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", banner)
        if not found:
            self._process.kill()
            raise LifelineError("lifeline serve did not start: " + (banner + self._process.stderr.read()).strip())
        self.binary = binary
        self.endpoint_url = found.group(0)

    # --- SQS ------------------------------------------------------------------------------------------------------
    def client(self, **kwargs):
        """A boto3 SQS client pointed here (any credentials: the endpoint accepts every signature)."""
        import boto3  # only the tests that want a client need boto3

        options = {"endpoint_url": self.endpoint_url, "region_name": "us-east-1", "aws_access_key_id": "test",
                   "aws_secret_access_key": "test"}
        options.update(kwargs)
        return boto3.client("sqs", **options)

    def messages(self, queue_url, invisible=False, delayed=False):
        """Every message of the queue without receiving it (LocalStack's /_aws/sqs/messages): dicts as boto3's
        receive_message returns them, with IsVisible / IsDelayed attributes when asked for those messages too."""
        request = urllib.request.Request(
            self.endpoint_url + "/_aws/sqs/messages", json.dumps({"QueueUrl": queue_url, "ShowInvisible": invisible,
                                                                  "ShowDelayed": delayed}).encode(),
            {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "AmazonSQS.ReceiveMessage"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read()).get("Messages", [])

    # --- the clock ------------------------------------------------------------------------------------------------
    def advance(self, by, after_waiting=None):
        """Moves virtual time on by `by` ("500ms", "30s", "1m30s", "4d", or milliseconds): every timer due inside
        fires in order and the long polls it completes are answered. With `after_waiting=N` it first waits (up to
        10 s of wall time) until N receives are parked, so a long poll started on another thread is surely waiting
        when the clock moves: no sleep. Returns the new time in ms."""
        body = {"by": by} if after_waiting is None else {"by": by, "afterWaiting": after_waiting}
        return self._control("POST", "/_lifeline/clock/advance", body)["now_ms"]

    @property
    def waiting(self):
        """The receives parked now (long polls waiting), by queue name: {"jobs": 1}."""
        return self._control("GET", "/_lifeline/clock")["waiting"]

    def reset(self):
        """Every queue and message gone, the clock back at 0, a new id and handle group: a fresh endpoint on the same
        port (a long poll waiting now gets NonExistentQueue). Returns the clock's new time, 0."""
        return self._control("POST", "/_lifeline/reset", {})["now_ms"]

    def faults(self, plan=...):
        """SQS's own faults, injected and seeded (docs/faults.md): with a plan ({"seed": 7, "faults": [{"kind":
        "duplicate", "rate": 0.3}]}, or the list alone) it sets it, with None it clears it; either way, and with no
        argument, it returns {"plan": ..., "struck": {"duplicate": 2, ...}}. A bad plan raises LifelineError naming
        the field."""
        if plan is ...:
            return self._control("GET", "/_lifeline/faults")
        if plan is None:
            return self._control("DELETE", "/_lifeline/faults")
        return self._control("POST", "/_lifeline/faults", plan)

    @property
    def now_ms(self):
        return self._control("GET", "/_lifeline/clock")["now_ms"]

    def run_file(self):
        """The run so far as a run file's bytes (the window opens it; `lifeline run FILE --export F.png` draws it)."""
        return self._read("/_lifeline/runs/current?format=lifeline")

    def timeline(self, image_format="png", size="1600x900"):
        """The run so far drawn by the server: PNG (or "svg") bytes."""
        return self._read(f"/_lifeline/runs/current?format={image_format}&size={size}")

    def lanes(self, queue=None):
        """What happened, per queue: each message's state segments (to the millisecond) and receives."""
        return json.loads(self._read("/_lifeline/runs/current?format=json" + (f"&queue={queue}" if queue else "")))

    def save_timeline(self, folder, name):
        """Writes NAME.lifeline and NAME.png (the server's drawing of it) into `folder`; returns the paths written."""
        os.makedirs(folder, exist_ok=True)
        written = []
        for suffix, content in ((".lifeline", self.run_file()), (".png", self.timeline())):
            path = os.path.join(folder, name + suffix)
            with open(path, "wb") as file:
                file.write(content)
            written.append(path)
        return tuple(written)

    def stop(self):
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()

    def _read(self, path):
        try:
            with urllib.request.urlopen(self.endpoint_url + path, timeout=60) as answer:
                return answer.read()
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read()).get("error", {})
            raise LifelineError(f"{path}: {detail.get('field')}: {detail.get('message')}") from None

    def _control(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.endpoint_url + path, data, {"Content-Type": "application/json"},
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read()).get("error", {})
            raise LifelineError(f"{path}: {detail.get('field')}: {detail.get('message')}") from None
