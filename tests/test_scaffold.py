"""fcsim new-strategy's package: what it holds, that its strategy plays and conforms once
installed, and (slow) a real pip install, its own tests and fcsim compare."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from fcsim.scaffold import ScaffoldError, write_package
from fcsim.strategies import parse_strategy
from fcsim.testing import check_strategy
from tests.conftest import write_package as write_installed


@pytest.mark.parametrize("kind", ["numba", "python"])
def test_the_package_declares_its_strategy_and_it_conforms(tmp_path, plugins, kind) -> None:
    out = tmp_path / "pkg"
    written = write_package("mine", kind, out)
    assert sorted(str(p.relative_to(out)) for p in written) == [
        "README.md", "fcsim_mine/__init__.py", "fcsim_mine/strategy.py", "pyproject.toml",
        "tests/test_strategy.py"]
    project = tomllib.loads((out / "pyproject.toml").read_text())
    points = project["project"]["entry-points"]["fcsim.strategies"]
    assert points == {"mine": "fcsim_mine.strategy:FAMILY"}
    assert "fcsim" in project["project"]["dependencies"]
    site = plugins("fcsim-mine", points, {})  # installed: its entry point, its folder
    sys.path.insert(0, str(out))
    try:
        strategy = parse_strategy("mine:take_margin=2")
        assert strategy.family.is_numba == (kind == "numba")
        assert strategy.family.source == "fcsim-mine 0.1.0"
        check_strategy(strategy, games=1)
    finally:
        sys.path.remove(str(out))
    assert site.is_dir()


def test_names_and_folders_it_cannot_use(tmp_path) -> None:
    for name, message in (("Mine", "bad strategy name 'Mine'"),
                          ("2fast", "bad strategy name"),
                          ("greedy", "a strategy named 'greedy' exists already"),
                          # a spec of it would name OpenSpiel's strategies: never the plug-in
                          ("openspiel", r"'openspiel' names a family of strategies")):
        with pytest.raises(ScaffoldError, match=message):
            write_package(name, "numba", tmp_path / name)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(ScaffoldError, match="exists and is not an empty folder"):
        write_package("mine", "numba", tmp_path / "full")


def test_a_name_an_installed_plug_in_declares_is_taken(tmp_path, plugins) -> None:
    """A name an installed package declares is refused like a built-in one: two packages
    declaring one name leave neither playable by that name."""
    plugins("fcsim-theirs", {"theirs": "theirs_mod:FAMILY"}, {})
    with pytest.raises(ScaffoldError, match="a strategy named 'theirs' exists already"):
        write_package("theirs", "numba", tmp_path / "pkg")
    assert not (tmp_path / "pkg").exists()


def test_installed_metadata_helper_matches_what_pip_writes(tmp_path) -> None:
    """The tests' stand-in for pip (tests/conftest.py) is read like a real install."""
    from importlib.metadata import distributions

    write_installed(tmp_path, "fcsim-x", {"x": "m:F"}, {})
    (dist,) = distributions(path=[str(tmp_path)])
    assert dist.name == "fcsim-x" and next(iter(dist.entry_points)).group == "fcsim.strategies"


@pytest.mark.slow
def test_pip_install_then_its_tests_then_compare(tmp_path) -> None:
    """The promise of the scaffold, for real: a venv sharing this Python's packages (fcsim,
    numba), ``pip install -e``, ``pytest`` on the package, ``fcsim compare``."""
    out = tmp_path / "fcsim-cautious"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path.cwd()), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-m", "fcsim", "new-strategy", "cautious", "--out",
                    str(out)], check=True, env=env, capture_output=True)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    python = str(venv / "bin" / "python")

    def run(*args: str) -> str:
        done = subprocess.run([python, *args], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    run("-m", "pip", "install", "--quiet", "-e", str(out))
    assert "2 passed" in run("-m", "pytest", "-q", "-p", "no:cacheprovider", str(out))
    compared = run("-m", "fcsim", "compare", "cautious", "greedy", "--deals", "20",
                   "--workers", "1")
    assert "cautious vs greedy: 20 deals" in compared and "verdict:" in compared
