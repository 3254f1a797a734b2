"""Record a benchmark script's figures in ``docs/BENCHMARKS.md`` (``--page``).

Every ``scripts/bench_*.py`` runs its ``main`` inside :func:`recording`::

    if __name__ == "__main__":
        with recording(__file__):
            main()

Without ``--page`` nothing changes. With it, ``--page`` is taken off the arguments, the
script runs as usual, and when it ends without an error its ``key=value`` lines (what it
printed, paths left out) replace that script's section of ``docs/BENCHMARKS.md``, under
the command that printed them, the date and time (UTC), the commit of the tree measured
(marked when ``fcsim/`` had uncommitted changes), the core count and the load average
when it started. Other scripts' sections are kept as they are. The page is only ever
written here: never edit it by hand, run the script again.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "BENCHMARKS.md"
FLAG = "--page"
_PAIR = re.compile(r"[\w.-]+=\S+")
_WORD = re.compile(r"[a-z_]+")
_SECTION = re.compile(r"<!-- bench:(\S+) -->\n.*?<!-- /bench:\1 -->\n", re.DOTALL)

HEADER = """# Benchmarks

This page is written by the benchmark scripts in `scripts/`, never by hand. Each script
prints one stable `key=value` line per case (see its docstring for what each key means);
run with `--page`, it also replaces its own section below with those lines, the command
that printed them, the date, the commit measured and the machine's load. To measure again:

```bash
python scripts/bench_engine.py --scale 0.1 --page    # any script, any arguments, plus --page
```

Figures depend on the machine and on what else runs on it: compare figures side by side
(`--against REF`, where a script takes it, measures a git ref in the same run) rather than
across sections measured on different days. Each section's command gives the sizes it
ran at; a script's defaults are its full-size measurement. "measured … at commit" names
the commit measured, marked when `fcsim/` had uncommitted changes; a script's own
`commit=…-dirty` marks any uncommitted change, this page's included.
"""


class _Tee:
    """Writes go to ``stream`` and are kept."""

    def __init__(self, stream) -> None:
        self.stream, self.parts = stream, []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def figure_lines(output: str) -> list[str]:
    """The lines of ``output`` made of ``key=value`` pairs (and plain words such as a
    case name), each without the pairs whose value is a path."""
    kept = []
    for line in output.splitlines():
        tokens = line.split()
        if not any(_PAIR.fullmatch(t) for t in tokens) or not all(
                _PAIR.fullmatch(t) or _WORD.fullmatch(t) for t in tokens):
            continue
        kept.append(" ".join(t for t in tokens if not t.partition("=")[2].startswith("/")))
    return kept


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def commit() -> str:
    """The commit of this tree, marked when ``fcsim/`` differs from it."""
    head = _git("rev-parse", "--short=10", "HEAD") or "unknown"
    if _git("status", "--porcelain", "--untracked-files=no", "--", "fcsim"):
        head += " (with uncommitted changes to fcsim/)"
    return head


def section(script: str, command: str, lines: list[str], when: datetime.datetime,
            measured_at: str, load: float) -> str:
    """The page's section for ``script`` (delimited so that a later run can replace it)."""
    body = "\n".join(lines) if lines else "(no key=value lines printed)"
    return (f"<!-- bench:{script} -->\n## `{script}`\n\n"
            f"- command: `{command}`\n"
            f"- measured: {when:%Y-%m-%d %H:%M} UTC at commit `{measured_at}`\n"
            f"- machine: {os.cpu_count()} cores, load average {load:.2f} at the start\n\n"
            f"```text\n{body}\n```\n<!-- /bench:{script} -->\n")


def write_section(script: str, text: str, page: Path | None = None) -> None:
    """Replace (or add) ``script``'s section of ``page`` (the benchmarks page unless
    given); sections stay sorted by name."""
    page = page or PAGE
    old = page.read_text() if page.exists() else ""
    sections = {m.group(1): m.group(0) for m in _SECTION.finditer(old)}
    sections[script] = text
    new = HEADER + "".join("\n" + sections[name] for name in sorted(sections))
    tmp = page.with_suffix(".md.tmp")
    tmp.write_text(new)
    tmp.replace(page)


@contextlib.contextmanager
def recording(script_file: str) -> Iterator[None]:
    """Run the block; with ``--page`` in ``sys.argv``, record its figures (see above)."""
    if FLAG not in sys.argv[1:]:
        yield
        return
    sys.argv = [a for a in sys.argv if a != FLAG]
    script = Path(script_file).name
    command = shlex.join(["python", f"scripts/{script}", *sys.argv[1:]])
    when = datetime.datetime.now(datetime.UTC)
    load, measured_at = os.getloadavg()[0], commit()
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    write_section(script, section(script, command, figure_lines("".join(tee.parts)), when,
                                  measured_at, load))
    print(f"recorded in {PAGE}", file=sys.stderr)
