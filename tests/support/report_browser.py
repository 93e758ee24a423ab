"""Render the Snakemake report in headless Chromium and say what a reader would see.

The slow test in tests/workflow/test_report.py runs this on the fixture; run it by hand on a real
report (Debian: `apt-get install chromium`) and look at the screenshots:

    .venv/bin/python -m tests.support.report_browser report.html report-shots

It writes report-shots/landing.png and one screenshot per report item, and prints what the
browser rendered. Chromium runs with no network features; the report needs none.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

# CHROMIUM names the browser; else the first of these on PATH (Debian's package is
# chromium, GitHub's Ubuntu runners have google-chrome).
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> Path | None:
    if "CHROMIUM" in os.environ:
        return Path(os.environ["CHROMIUM"])
    found = next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)
    return Path(found) if found else None


CHROMIUM = find_chromium()
FLAGS = [
    "--headless",
    "--no-sandbox",  # root in containers and CI
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=15000",  # let React render and the embedded Tailwind style it
]
WINDOW = "1400,900"

# Injected after the report's own scripts: show one item (or the landing page), then record
# what is on screen in <body data-check="...">, which --dump-dom prints.
PROBE = """
<script>
window.addEventListener("load", function () {
  const path = %s;
  function record() {
    const content = document.querySelector("#app .grow.h-screen");
    const shown = content ? content.querySelector("img, iframe, .prose") : null;
    const box = shown ? shown.getBoundingClientRect() : null;
    document.body.dataset.check = JSON.stringify({
      tag: shown ? shown.tagName.toLowerCase() : null,
      src: shown && shown.src ? shown.src.slice(0, 30) : null,
      top: box ? box.top : null,
      bottom: box ? box.bottom : null,
      width: box ? box.width : null,
      content: content ? content.innerText : "",
      menu: document.querySelector("#app").innerText,
    });
  }
  setTimeout(function () {
    if (path === null) { return setTimeout(record, 500); }
    app.showResultInfo(path);
    setTimeout(function () {
      new ToggleViewManager(app).handleSelectedResult(path);
      setTimeout(record, 500);
    }, 300);
  }, 500);
});
</script>
"""


# Injected into a table page: scroll its table to the far right, then record whether the
# page stays inside the window and the last column comes into view.
TABLE_PROBE = """
<script>
window.addEventListener("load", function () {
  const box = document.querySelector(".scroll");
  const names = box.querySelectorAll("thead tr:last-child th");
  const before = {page: document.documentElement.scrollWidth, window: window.innerWidth,
                  box: box.clientWidth, table: box.scrollWidth,
                  overflow: getComputedStyle(box).overflowX};
  box.scrollLeft = box.scrollWidth;
  const edge = box.getBoundingClientRect();
  const last = names[names.length - 1].getBoundingClientRect();
  const first = names[0].getBoundingClientRect();
  document.body.dataset.check = JSON.stringify(Object.assign(before, {
    box_left: edge.left, box_right: edge.right, last_right: last.right,
    first_left: first.left, last_name: names[names.length - 1].innerText}));
});
</script>
"""


def chromium(*args: str, timeout: float = 90, attempts: int = 2) -> str:
    """Run headless Chromium with a throwaway profile; its stdout. Now and then, on a
    loaded machine, headless Chromium hangs instead of ending its virtual time (a probe
    that takes 10 s hung for 120 s once in a CI run): such a run is killed, with its
    helper processes, and tried again with a new profile, up to `attempts` times."""
    for attempt in range(1, attempts + 1):
        # Chromium's helpers may still write to the profile while it is removed.
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
            command = [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args]
            process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                start_new_session=True,
            )  # fmt: skip
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                if attempt == attempts:
                    raise RuntimeError(
                        f"chromium hung {attempts} times (over {timeout} s): {args}"
                    ) from None
                continue
        if process.returncode != 0:
            raise RuntimeError(f"chromium failed ({process.returncode}):\n{stderr[-2000:]}")
        return stdout
    raise AssertionError("unreachable")


def report_data(report: Path) -> tuple[dict, dict]:
    """The report's embedded `results` and `categories` (JSON written by Snakemake)."""
    text = report.read_text()
    found = {}
    for name in ("results", "categories"):
        match = re.search(rf"var {name} = (\{{.*\}});\n", text)
        assert match, f"{report} embeds no {name}"
        found[name] = json.loads(match.group(1))
    return found["results"], found["categories"]


def probe(report: Path, path: str | None, folder: Path, png: Path | None = None) -> dict:
    """Open the report showing `path` (None: the landing page); what the page shows, and a
    screenshot when `png` is given."""
    page = folder / f".probe-{png.stem if png else 'page'}.html"
    head, tail = report.read_text().rsplit("</body>", 1)  # embedded scripts quote "</body>"
    page.write_text(head + PROBE % json.dumps(path) + "</body>" + tail)
    dom = chromium("--dump-dom", f"--window-size={WINDOW}", page.as_uri())
    match = re.search(r'<body[^>]* data-check="([^"]*)"', dom)
    if png is not None:
        chromium(f"--screenshot={png}", f"--window-size={WINDOW}", page.as_uri())
    page.unlink()
    if match is None:
        raise AssertionError(f"the report did not render {path or 'its landing page'}")
    return json.loads(html.unescape(match.group(1)))


def probe_table(page: Path, width: int, png: Path | None = None) -> dict:
    """Open a table page `width` px wide with its table scrolled to the right end: the
    page's width, the table's, and where its first and last columns are."""
    probed = page.with_name(f".probe-{page.name}")
    head, tail = page.read_text().rsplit("</body>", 1)
    probed.write_text(head + TABLE_PROBE + "</body>" + tail)
    size = f"--window-size={width},900"
    dom = chromium("--dump-dom", size, probed.as_uri())
    if png is not None:
        chromium(f"--screenshot={png}", size, probed.as_uri())
    probed.unlink()
    match = re.search(r'<body[^>]* data-check="([^"]*)"', dom)
    if match is None:
        raise AssertionError(f"{page} did not render")
    return json.loads(html.unescape(match.group(1)))


def check_report(report: Path, folder: Path) -> dict[str, dict]:
    """Screenshots of the landing page and of every item into `folder`; what each showed."""
    folder.mkdir(parents=True, exist_ok=True)
    results, _ = report_data(report)
    shown = {"landing": probe(report, None, folder, folder / "landing.png")}
    for path in sorted(results):
        shown[path] = probe(report, path, folder, folder / f"{Path(path).stem}.png")
    return shown


def main(argv: list[str]) -> int:
    report, folder = Path(argv[0]), Path(argv[1] if len(argv) > 1 else "report-shots")
    for name, seen in check_report(report, folder).items():
        where = f"from {seen['top']} to {seen['bottom']} px"
        print(f"{name}: <{seen['tag']}> {seen['src'] or ''} {where}")
    print(f"screenshots in {folder}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
