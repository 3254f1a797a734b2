"""``scripts/bench_page.py``: a benchmark's ``--page`` replaces its own section of the
benchmarks page, with the command, date and commit, and keeps the others."""

from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import bench_page  # noqa: E402

WHEN = datetime.datetime(2026, 12, 3, 13, 30, tzinfo=datetime.UTC)


def test_only_key_value_lines_are_figures_and_paths_are_left_out() -> None:
    output = ("compiling the kernels once\n"
              "case=solve14 cards=14 ns=373.1\n"
              "copy players=4 copy_us=0.91\n"
              "ref=working-tree fcsim=/home/me/fcsim\n"
              "100% done, 4 games left\n")
    assert bench_page.figure_lines(output) == ["case=solve14 cards=14 ns=373.1",
                                               "copy players=4 copy_us=0.91",
                                               "ref=working-tree"]


def test_a_section_is_replaced_and_the_others_kept(tmp_path: Path) -> None:
    page = tmp_path / "BENCHMARKS.md"
    for script, figure in (("bench_b.py", "x=1"), ("bench_a.py", "y=2"), ("bench_b.py", "x=3")):
        text = bench_page.section(script, f"python scripts/{script} --page", [figure], WHEN,
                                  "abc1234", 0.5)
        bench_page.write_section(script, text, page)
    written = page.read_text()
    assert written.startswith(bench_page.HEADER)
    assert written.index("bench_a.py") < written.index("bench_b.py")
    assert "x=3" in written and "x=1" not in written and "y=2" in written
    assert "2026-12-03 13:30 UTC at commit `abc1234`" in written


def test_every_benchmark_script_takes_page() -> None:
    scripts = sorted((ROOT / "scripts").glob("bench_*.py"))
    missing = [s.name for s in scripts if s.name != "bench_page.py"
               and "with recording(__file__):" not in s.read_text()]
    assert missing == []


def test_page_runs_a_script_and_records_it(tmp_path: Path) -> None:
    script = tmp_path / "bench_demo.py"
    script.write_text("import sys\nsys.path.insert(0, sys.argv.pop(1))\n"
                      "import bench_page\nbench_page.PAGE = bench_page.Path(sys.argv.pop(1))\n"
                      "with bench_page.recording(__file__):\n"
                      "    print('case=demo args=' + ','.join(sys.argv[1:]) + ' s=0.5')\n")
    page = tmp_path / "BENCHMARKS.md"
    subprocess.run([sys.executable, str(script), str(ROOT / "scripts"), str(page), "--page",
                    "--n", "3"], check=True, capture_output=True, text=True, cwd=tmp_path)
    written = page.read_text()
    assert "- command: `python scripts/bench_demo.py --n 3`" in written
    assert "case=demo args=--n,3 s=0.5" in written


def test_every_section_of_the_page_is_a_script_of_today() -> None:
    recorded = bench_page._SECTION.findall(bench_page.PAGE.read_text())
    assert recorded
    assert [name for name in recorded if not (ROOT / "scripts" / name).exists()] == []


def _keys(line: str) -> frozenset[str]:
    return frozenset(pair.partition("=")[0].strip("`") for pair in line.split() if "=" in pair)


def test_every_line_on_the_page_is_a_line_its_script_documents() -> None:
    """Each recorded line's keys are those of a line its script's docstring shows (a
    script's header line naming the trees, and lines of specs with ``=`` in them, aside)."""
    page = bench_page.PAGE.read_text()
    undocumented = []
    for section in bench_page._SECTION.finditer(page):
        script = section.group(1)
        recorded = section.group(0).split("```text\n")[1].split("\n```")[0].splitlines()
        doc = (ROOT / "scripts" / script).read_text().split('"""')[1]
        documented = {_keys(line) for line in doc.splitlines()}
        undocumented += [f"{script}: {line}" for line in recorded
                         if not line.startswith("ref=") and ":" not in line
                         and _keys(line) not in documented]
    assert undocumented == []
