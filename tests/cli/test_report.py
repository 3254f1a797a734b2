"""``fcsim report`` under faults: Ctrl-C mid-report, runs holding the same games, a
damaged chunk, an --out that is not a report's."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from fcsim.analysis import plots
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.cli import cli


def report(*args: str):
    return CliRunner().invoke(cli, ["report", *args])


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return write_synthetic_run(tmp_path_factory.mktemp("runs") / "run", ["a", "b"], [0.2, 0],
                               games=400, seed=3, games_per_file=100)


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_ctrl_c_leaves_the_previous_report_whole(run, tmp_path, monkeypatch):
    out = tmp_path / "report"
    assert report(str(run), "--out", str(out)).exit_code == 0
    before = files_of(out)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt  # as Ctrl-C, half way through the charts

    monkeypatch.setattr(plots, "plot_ratings", interrupted)
    other = write_synthetic_run(tmp_path / "other", ["a", "b"], [0, 0.2], 400, seed=4)
    result = report(str(other), "--out", str(out))
    assert result.exit_code == 130
    assert result.output.strip() == f"Interrupted: {out} was not changed."
    assert files_of(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "report"]  # no leftovers


def test_a_full_disk_is_one_line_and_leaves_the_previous_report_whole(run, tmp_path,
                                                                      monkeypatch):
    out = tmp_path / "report"
    assert report(str(run), "--out", str(out)).exit_code == 0
    before = files_of(out)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "ratings.png")

    monkeypatch.setattr(plots, "plot_ratings", full)
    result = report(str(run), "--out", str(out))
    assert result.exit_code == 1
    assert result.output == (f"Error: ratings.png: No space left on device; {out} was not "
                             f"changed\n")
    assert files_of(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # no leftovers


def test_a_new_report_replaces_the_old_one_whole(run, tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "report.md").write_text("# an older report")
    (out / "stale_chart.png").write_bytes(b"from an older report")
    result = report(str(run), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "stale_chart.png" not in files_of(out) and "report.html" in files_of(out)
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~mask  # not mkdtemp's owner-only 0700


def test_pages_and_pictures_of_no_report_are_refused(run, tmp_path, monkeypatch):
    """Files of a report's kinds, but no report's page: someone's site, kept (it was
    replaced whole); nor the folder fcsim runs in (a traceback for --out .)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html>my homepage</html>")
    (site / "thesis.md").write_text("# my notes")
    result = report(str(run), "--out", str(site))
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {site} holds index.html, which is no part of a "
                                    f"report")
    assert sorted(files_of(site)) == ["index.html", "thesis.md"]
    monkeypatch.chdir(tmp_path)
    for here in (".", str(tmp_path)):
        result = report(str(run), "--out", here)
        assert result.exit_code == 1, result.output
        assert result.output.strip() == (f"Error: {here} holds the folder fcsim runs in, and "
                                         f"a report replaces its whole folder; choose "
                                         f"another --out")


def test_an_out_folder_with_other_files_is_refused(run, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = report(str(run), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: {tmp_path} holds notes.txt, which is no part of "
                                     f"a report (a report replaces its whole folder); choose "
                                     f"another --out")
    assert files_of(tmp_path) == {"notes.txt": b"mine"}


def test_an_out_folder_that_cannot_be_made_is_one_line(run, tmp_path):
    (tmp_path / "file").write_text("mine")  # a file where --out's parent folder would be
    out = tmp_path / "file" / "report"
    result = report(str(run), "--out", str(out))
    assert result.exit_code == 1
    assert result.output == f"Error: cannot write {out}: File exists\n"


def test_a_copy_of_a_run_is_refused_not_counted_twice(run, tmp_path):
    copy = shutil.copytree(run, tmp_path / "copy")
    result = report(str(run), str(copy), "--out", str(tmp_path / "report"))
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: {run} and {copy} hold the same games (seed 3, "
                                     f"games 0 to 399 in both): they would count twice; give "
                                     f"each game once")
    assert not (tmp_path / "report").exists()


def test_a_damaged_chunk_is_named_with_what_to_do(run, tmp_path):
    broken = shutil.copytree(run, tmp_path / "broken")
    (broken / "part-000003.parquet").write_bytes(b"PAR1" * 25)
    result = report(str(broken), "--out", str(tmp_path / "report"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    line = result.output.strip()
    assert line.startswith(f"Error: {broken}: part-000003.parquet is damaged (not a complete "
                           f"Parquet file: ")
    assert line.endswith(f"; repair it with its fcsim simulate command and --resume (fcsim "
                         f"info {broken} prints it)")
    assert "\n" not in line


def test_a_missing_or_repeated_folder_is_bad_input(run, tmp_path):
    for args, line in [
        ([str(tmp_path / "absent")], f"Error: no such run folder: {tmp_path / 'absent'}"),
        ([str(run), f"{run}/"], f"Error: {run} is given twice: its games would count twice"),
    ]:
        result = report(*args, "--out", str(tmp_path / "report"))
        assert result.exit_code == 2 and result.output.strip() == line
    assert not (tmp_path / "report").exists()


def test_an_incomplete_run_is_reported_as_such(run, tmp_path):
    part = shutil.copytree(run, tmp_path / "part")
    (part / "part-000003.parquet").unlink()
    result = report(str(part), "--out", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"warning: {part} is incomplete (3 of 4 chunks played): the "
                             f"report covers the games played so far\n")
    page = (tmp_path / "report" / "report.md").read_text()
    assert f"**Incomplete:** {part} is incomplete (3 of 4 chunks played)" in page
    whole = report(str(run), "--out", str(tmp_path / "whole"))
    assert whole.stderr == "" and "Incomplete" not in (tmp_path / "whole" / "report.md").read_text()


# Runs ``fcsim report ARGS`` in a fresh interpreter, then names the modules it loaded of
# those a report never needs (the engine, the strategies) or needs only for a real folder.
LOADED_BY_REPORT = """
    import sys
    from fcsim.cli import main
    sys.argv = ["fcsim", "report", *{args!r}]
    try:
        main()
    except SystemExit:
        pass
    print(" ".join(name for name in ("fcsim.core.engine", "fcsim.strategies", "polars",
                                     "matplotlib") if name in sys.modules))
"""


@pytest.mark.parametrize("args", [["nowhere"], ["--help"]])
def test_a_mistyped_path_or_the_help_loads_no_engine_and_no_analysis(args: list[str]) -> None:
    """They took a second and more, loading the game engine, every strategy and the
    analysis stack (polars, scipy, matplotlib) before refusing a path that is no folder."""
    code = textwrap.dedent(LOADED_BY_REPORT).format(args=args)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines()[-1] == ""
