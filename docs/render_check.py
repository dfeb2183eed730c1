"""Render the built pages in a headless browser, offline, and check that every formula was typeset.

``python docs/render_check.py docs/_build/html [PAGE.html ...]`` opens each page that
contains math (or the pages named, relative to the site) in headless Chromium with every
host name unresolvable, so nothing can come from the network, lets the page's scripts run,
reads the rendered DOM (``--dump-dom``) and exits non-zero, naming each problem, when

* a math element of the page holds no MathJax output (``mjx-container``) afterwards;
* MathJax reported an error in a formula (``mjx-merror``);
* the page's text still shows TeX delimiters (``\\(``, ``\\[``, ``$$``, ``\\begin{``) outside
  code blocks.

The browser is Debian's ``chromium`` (or the one named by ``$CHROMIUM``).  Without one
the check fails, unless ``--skip-without-browser`` is given (then it says it skipped).
``--screenshot DIR`` also saves a PNG of each page checked, as rendered.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from html.parser import HTMLParser
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-extensions", "--disable-sync", "--mute-audio", "--hide-scrollbars",
         "--host-resolver-rules=MAP * ~NOTFOUND",  # offline: every host name fails to resolve
         "--virtual-time-budget=20000"]  # let the page's scripts (MathJax) run before the DOM is read
MATH_CLASS = "math"
CODE = {"script", "style", "pre", "code", "textarea", "mjx-assistive-mml"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
RAW_TEX = ("\\(", "\\[", "$$", "\\begin{")


class Rendered(HTMLParser):
    """What the rendered DOM shows: math elements without typeset output, MathJax errors,
    typeset formulas, and the visible text outside formulas and code."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.math = 0
        self.typeset = 0
        self.untypeset: list[str] = []
        self.errors = 0
        self.text: list[str] = []
        self.stack: list[str] = []
        self.math_open: list[tuple[int, list[str], bool]] = []  # (depth, its text, has output)
        self.skip = 0

    def handle_starttag(self, tag, attrs) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag in VOID:
            return
        self.stack.append(tag)
        if tag in CODE or tag == "mjx-container":
            self.skip += 1
        if tag == "mjx-container":
            self.typeset += 1
            if self.math_open:
                self.math_open[-1] = (self.math_open[-1][0], self.math_open[-1][1], True)
        if tag == "mjx-merror":
            self.errors += 1
        if MATH_CLASS in classes and tag in ("span", "div"):
            self.math += 1
            self.math_open.append((len(self.stack), [], False))

    def handle_endtag(self, tag) -> None:
        if tag not in self.stack:
            return
        while self.stack:
            closed = self.stack.pop()
            if closed in CODE or closed == "mjx-container":
                self.skip = max(0, self.skip - 1)
            if self.math_open and len(self.stack) < self.math_open[-1][0]:
                _, text, output = self.math_open.pop()
                if not output:
                    self.untypeset.append(" ".join("".join(text).split())[:80])
            if closed == tag:
                break

    def handle_data(self, data) -> None:
        if self.math_open:
            self.math_open[-1][1].append(data)
        if not self.skip:
            self.text.append(data)


def browser() -> str | None:
    named = os.environ.get("CHROMIUM")
    if named:
        return named
    return next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)


def render(exe: str, page: Path, screenshot: Path | None = None) -> str:
    """The page's DOM after its scripts ran, read offline by a fresh browser profile."""
    with tempfile.TemporaryDirectory(prefix="render-") as profile:
        args = [exe, *FLAGS, f"--user-data-dir={profile}"]
        if screenshot is not None:
            subprocess.run([*args, "--window-size=1280,1600", f"--screenshot={screenshot}", page.as_uri()],
                           capture_output=True, timeout=180, check=False)
        out = subprocess.run([*args, "--dump-dom", page.as_uri()], capture_output=True, text=True,
                             timeout=180, check=False)
    if out.returncode != 0 or "<html" not in out.stdout:
        raise RuntimeError(f"the browser could not render {page} (exit {out.returncode}): {out.stderr.strip()[-300:]}")
    return out.stdout


def check_page(exe: str, site: Path, page: Path, shots: Path | None) -> tuple[str, list[str], int]:
    name = page.relative_to(site).as_posix()
    shot = shots / (name.replace("/", "__").removesuffix(".html") + ".png") if shots else None
    dom = Rendered()
    dom.feed(render(exe, page, shot))
    problems = [f"{name}: formula not typeset: {text!r}" for text in dom.untypeset[:5]]
    if len(dom.untypeset) > 5:
        problems.append(f"{name}: {len(dom.untypeset) - 5} more formulas not typeset")
    if dom.errors:
        problems.append(f"{name}: MathJax reports {dom.errors} formula error(s)")
    text = " ".join(dom.text)
    problems += [f"{name}: raw TeX {raw!r} in the rendered text" for raw in RAW_TEX if raw in text]
    return name, problems, dom.typeset


def pages_with_math(site: Path) -> list[Path]:
    found = []
    for page in sorted(site.rglob("*.html")):
        if "_static" in page.parts or "_sources" in page.parts or "_modules" in page.parts:
            continue
        html = page.read_text(encoding="utf-8")
        if 'class="math' in html:
            found.append(page)
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built site (the folder holding index.html)")
    parser.add_argument("pages", nargs="*", help="pages to check, relative to the site (default: every page with math)")
    parser.add_argument("--screenshot", type=Path, metavar="DIR", help="also save a PNG of each page checked")
    parser.add_argument("--skip-without-browser", action="store_true", help="pass, saying so, if no browser is found")
    parser.add_argument("--jobs", type=int, default=2, help="pages rendered at once (default 2)")
    args = parser.parse_args(argv[1:])
    exe = browser()
    if exe is None:
        print("render check: no chromium found (install Debian's chromium, or set CHROMIUM)")
        return 0 if args.skip_without_browser else 1
    site = args.site.resolve()
    pages = [site / p for p in args.pages] if args.pages else pages_with_math(site)
    if not pages:
        print(f"render check: no page with math under {site}")
        return 1
    if args.screenshot:
        args.screenshot.mkdir(parents=True, exist_ok=True)
    print(f"render check: {len(pages)} pages with math, {max(1, args.jobs)} at a time", flush=True)
    start = time.monotonic()
    results = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:  # each page reported as it is done
        futures = [pool.submit(check_page, exe, site, page, args.screenshot) for page in pages]
        for done, future in enumerate(as_completed(futures), 1):
            results.append(future.result())
            name, found, count = results[-1]
            print(f"render check: [{done}/{len(pages)}] {name}: {count} formulas"
                  f"{f', {len(found)} problems' if found else ''} ({time.monotonic() - start:.0f} s)", flush=True)
    problems = [problem for _, found, _ in results for problem in found]
    typeset = sum(count for _, _, count in results)
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(f"render check: {len(pages)} pages rendered offline in {Path(exe).name}, {typeset} formulas typeset, "
          f"{'failed' if problems else 'passed'} ({len(problems)} problems)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
