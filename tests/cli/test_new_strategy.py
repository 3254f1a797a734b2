"""fcsim new-strategy at the command line."""

from __future__ import annotations

from click.testing import CliRunner

from fcsim.cli import cli


def test_it_writes_the_package_and_says_what_next(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["new-strategy", "mine", "--python"])
    assert result.exit_code == 0, result.output
    assert "wrote the python strategy 'mine' in fcsim-mine/:" in result.output
    assert ("next: pip install -e fcsim-mine && pytest fcsim-mine && fcsim compare mine "
            "greedy") in result.output
    assert "agent=make_agent" in (tmp_path / "fcsim-mine/fcsim_mine/strategy.py").read_text()


def test_a_name_it_cannot_use_is_one_line(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["new-strategy", "random", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: a strategy named 'random' exists already; choose another name"]
    assert not (tmp_path / "x").exists()


def test_both_kinds_at_once_are_refused(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["new-strategy", "mine", "--numba", "--python",
                                      "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --numba and --python exclude each other: give one of them"]
    assert not (tmp_path / "x").exists()


def test_numba_is_the_default_kind(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["new-strategy", "mine", "--out", str(tmp_path / "x")])
    assert result.exit_code == 0, result.output
    assert "wrote the numba strategy 'mine'" in result.output
