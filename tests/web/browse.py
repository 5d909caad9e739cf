#!/usr/bin/env python3
"""browse.py - load pages of a kmig web site in headless Chromium.

Drives Debian's chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4),
with the Python standard library only.  For every page given it navigates
to the file:// URL, waits for the load event and a settled DOM, collects
uncaught exceptions, console errors, browser log errors and failed
requests, then evaluates a probe that reads the DOM back.  Prints one JSON
object per page on stdout:

  {"page": NAME, "errors": [...], "failed": [...], "requests": [...],
   "probe": {...}}

and, with --screenshot FILE, writes a PNG of the first page, with
--dark-screenshot FILE another in the dark colour scheme (prefers-color-scheme
emulated); --eval JS evaluates JS on the first page after the probe (its
value is "eval").

usage: browse.py [--screenshot FILE] [--dark-screenshot FILE] [--eval JS]
                 SITE_DIR PAGE...
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", "--disable-extensions",
    "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
    "--remote-debugging-pipe",
]

# What the page looks like from inside: read back by the tests.
PROBE = r"""
(() => {
  const q = (s) => Array.from(document.querySelectorAll(s));
  const rows = {};
  q('table[id]').forEach(t => {
    rows[t.id] = t.tBodies.length ? t.tBodies[0].rows.length : 0;
  });
  const charts = {};
  q('svg.chart').forEach(svg => {
    charts[svg.id] = q('#' + svg.id + ' g.series').map(
      g => g.querySelectorAll('circle.pt').length);
  });
  const root = document.documentElement;
  return {
    title: document.title,
    js: root.getAttribute('data-js'),
    js_errors: root.getAttribute('data-js-errors'),
    pwned: root.getAttribute('data-pwned'),
    css: getComputedStyle(root).getPropertyValue('--kmig-css').trim(),
    scripts: q('script').map(s => s.getAttribute('src')),
    rows: rows,
    site_rows: q('table.sites tbody tr').length,
    charts: charts,
    text: document.body ? document.body.innerText : '',
    sortable: q('table.sortable thead th button').length,
  };
})()
"""


class Browser:
    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="kmig-chromium-")
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise SystemExit("browse.py: chromium is not installed (make deps)")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        args = [exe] + CHROMIUM_FLAGS + [
            "--user-data-dir=" + os.path.join(self.tmp, "profile"),
            "--window-size=1280,900",
        ]

        def fds():
            # move both ends out of the way first: either may be fd 3 or 4
            r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.log = open(os.path.join(self.tmp, "chromium.log"), "wb")
        self.proc = subprocess.Popen(args + ["about:blank"], preexec_fn=fds, close_fds=False,
                                     stdout=self.log, stderr=self.log,
                                     stdin=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def close(self):
        try:
            self.send("Browser.close", session=False, wait=False)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise EOFError("chromium exited")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, wait=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        if not wait:
            return None
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev["method"] == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def attach(self):
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": page["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")

    def visit(self, url):
        self.events = []
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")
        # the probe's answer comes after every event the page sent before it
        probe = self.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True})
        errors, failed, requests = [], [], []
        for ev in self.events:
            m, p = ev["method"], ev.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                errors.append(d.get("exception", {}).get("description") or d.get("text"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: " + " ".join(
                    str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
                errors.append("log: " + p["entry"]["text"])
            elif m == "Network.requestWillBeSent":
                requests.append(p["request"]["url"])
            elif m == "Network.loadingFailed":
                failed.append(p.get("errorText", "failed") + " " + p.get("requestId", ""))
            elif m == "Network.responseReceived" and p["response"].get("status", 200) >= 400:
                failed.append("%s %s" % (p["response"]["status"], p["response"]["url"]))
        if "exceptionDetails" in probe:
            errors.append("probe: " + json.dumps(probe["exceptionDetails"]))
        return errors, failed, requests, probe.get("result", {}).get("value", {})

    def screenshot(self, path):
        metrics = self.send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        shot = self.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": min(size["width"], 1280),
                     "height": min(size["height"], 4000), "scale": 1}})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))


def main(argv):
    shot, dark, js = None, None, None
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--screenshot":
            shot = argv.pop(0)
        elif opt == "--dark-screenshot":
            dark = argv.pop(0)
        elif opt == "--eval":
            js = argv.pop(0)
        else:
            raise SystemExit("browse.py: unknown option " + opt)
    if len(argv) < 2:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    site, pages = os.path.abspath(argv[0]), argv[1:]
    b = Browser()
    try:
        b.attach()
        for i, page in enumerate(pages):
            url = "file://" + os.path.join(site, page)
            errors, failed, requests, probe = b.visit(url)
            out = {"page": page, "errors": errors, "failed": failed,
                   "requests": requests, "probe": probe}
            if i == 0 and shot:
                b.screenshot(shot)
            if i == 0 and js:
                r = b.send("Runtime.evaluate", {"expression": js, "returnByValue": True,
                                                "awaitPromise": True})
                out["eval"] = r.get("result", {}).get("value")
                if "exceptionDetails" in r:
                    out["errors"].append("eval: " + json.dumps(r["exceptionDetails"]))
            print(json.dumps(out), flush=True)
        if dark:
            b.send("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            errors, failed, _, _ = b.visit("file://" + os.path.join(site, pages[0]))
            b.screenshot(dark)
            if errors or failed:
                raise SystemExit("browse.py: dark scheme: %r" % (errors + failed))
    finally:
        b.close()


if __name__ == "__main__":
    main(sys.argv[1:])
