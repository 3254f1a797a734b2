"""Regenerate ``docs/viewer.png``: the README's game in the viewer, taken in headless Chromium.

Writes the page with ``fcsim replay --seed 7 --game 0 --strategies
greedy,expected,random,random --html``, opens it at ``--step`` in the browser the tests use
(:mod:`fcsim.viewer.browser`) and saves a screenshot. Prints one stable line:
``page=… step=… screenshot=… bytes=…``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from arguments import summary

from fcsim.viewer.browser import headless_chromium

ROOT = Path(__file__).resolve().parents[1]
GAME = ["--seed", "7", "--game", "0", "--strategies", "greedy,expected,random,random"]


def window_size(text: str) -> tuple[int, int]:
    """An argparse type: ``WIDTHxHEIGHT`` in pixels, each at least 1."""
    width, sep, height = text.partition("x")
    if not (sep and width.isdigit() and height.isdigit() and int(width) and int(height)):
        raise argparse.ArgumentTypeError(f"not WIDTHxHEIGHT in pixels: {text!r}")
    return int(width), int(height)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--step", default="round-5-score-1", help="the step shown")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "viewer.png")
    parser.add_argument("--size", type=window_size, default="1200x1180",
                        help="window WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = args.size
    with tempfile.TemporaryDirectory(prefix="fcsim-viewer-") as tmp:
        page = Path(tmp) / "game.html"
        subprocess.run([sys.executable, "-m", "fcsim", "replay", *GAME, "--html", str(page)],
                       check=True, stdout=subprocess.DEVNULL)
        with headless_chromium(width, height) as driver:
            driver.get(f"{page.as_uri()}#{args.step}")
            shown = driver.execute_script("return document.body.dataset.step")
            if shown != args.step:
                sys.exit(f"no step {args.step!r} in the game (it opened at {shown!r})")
            driver.save_screenshot(str(args.out))
    print(f"page=fcsim-replay-seed-7-game-0 step={args.step} screenshot={args.out} "
          f"bytes={args.out.stat().st_size}")


if __name__ == "__main__":
    main()
