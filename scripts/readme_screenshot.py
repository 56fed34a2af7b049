"""Take the README's screenshot: the real chat (``python app.py``, default settings, the
embedded KG) in Debian Chromium, three questions asked, saved small under docs/.

Usage::

    .venv/bin/python scripts/readme_screenshot.py [--out docs/chat.png]
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ("Where was Albert Einstein born?", "And where did he die?", "Quelle est la capitale de l'Espagne ?")
"""A question, its follow-up (issue 36), and one in another language."""
WHERE = ("KGQA_KG_SOURCE", "KGQA_CACHE_DIR")
"""Kept from the environment: where the KG and the cache are (other settings are the defaults)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(url: str, timeout_s: float = 600) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"{url} did not come up")


def main() -> int:
    """Start the app, ask, screenshot, stop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "chat.png")
    args = parser.parse_args()
    port = _free_port()
    env = ({k: v for k, v in os.environ.items() if not k.startswith("KGQA_") or k in WHERE}
           | {"GRADIO_ANALYTICS_ENABLED": "False"})
    log = ROOT / "artifacts" / "screenshot_sessions.sqlite"
    log.parent.mkdir(exist_ok=True)
    app = subprocess.Popen([sys.executable, "app.py", "--port", str(port), "--log-path", str(log)], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait(url)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
            page = browser.new_page(viewport={"width": 860, "height": 900}, locale="en-US")
            page.goto(url)
            page.wait_for_selector("#kgqa-question textarea", timeout=60_000)
            time.sleep(1)
            for i, question in enumerate(QUESTIONS):
                box = page.locator("#kgqa-question textarea")
                box.fill(question)
                box.press("Enter")
                page.wait_for_function(f"document.querySelectorAll('.kgqa-answer').length > {i}", timeout=120_000)
                time.sleep(1)  # the follow-up needs its predecessor's context
            time.sleep(1)
            png = page.screenshot(full_page=False)
            browser.close()
    finally:
        app.terminate()
        app.wait(timeout=30)
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=64)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    image.save(args.out, optimize=True)
    print(f"{args.out}: {args.out.stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
