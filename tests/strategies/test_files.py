"""Strategies in loose files: ``path/to/file.py[:attribute][:key=value]``."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fcsim.strategies import StrategyError, parse_strategies, parse_strategy
from fcsim.strategies.files import file_digest, is_file_spec, module_name, split_file_spec
from tests.conftest import STOCK_ONLY, WILD_TAKER


def _file(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return path


def test_file_specs_are_told_apart_from_names_and_modules() -> None:
    assert is_file_spec("mine.py") and is_file_spec("a/b/Mine.PY:agent:x=1")
    assert not is_file_spec("greedy:take_margin=2") and not is_file_spec("pkg.mod:attr")
    assert split_file_spec("./a//b.py:take_margin=2") == ("a/b.py", "", "take_margin=2")
    assert split_file_spec("b.py:FAMILY:x=1,y=2") == ("b.py", "FAMILY", "x=1,y=2")


def test_a_file_plays_its_family_and_is_loaded_once_under_a_stable_name(
        tmp_path, plugins, monkeypatch) -> None:
    path = _file(tmp_path, "stock only.py", STOCK_ONLY)
    monkeypatch.chdir(tmp_path)
    strategy = parse_strategy("./stock only.py:unused=4")
    assert strategy.spec == "stock only.py:unused=4" and strategy.family.is_numba
    assert strategy.family.source == str(path)
    name = module_name(path.resolve(), path.read_bytes())
    assert name.startswith("fcsim_file_stock_only_") and name in sys.modules
    (tmp_path / "copy").mkdir()
    twin = _file(tmp_path / "copy", "stock only.py", STOCK_ONLY)
    assert module_name(twin.resolve(), twin.read_bytes()) == name  # same content, one module
    assert parse_strategy(f"{path}:FAMILY").family.draw is strategy.family.draw  # one load
    assert file_digest(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    listed = parse_strategies(f"greedy,{path}:FAMILY:unused=1,random")
    assert [s.name for s in listed] == ["greedy", f"{path}:FAMILY", "random"]


def test_a_file_attribute_may_be_an_agent_or_a_factory(tmp_path, plugins) -> None:
    path = _file(tmp_path, "agents.py", WILD_TAKER + """
    def stock_lover(view):
        return "stock" if view.phase == "draw" else view.hand[-1]
    """)
    assert parse_strategy(f"{path}:make_agent:patience=1").kwargs == {"patience": 1}
    agent = parse_strategy(f"{path}:stock_lover")
    assert not agent.family.is_numba and agent.family.params == ()


def test_a_factory_default_with_a_fraction_keeps_its_fractions(tmp_path, plugins) -> None:
    """A float default makes a fractional parameter: the factory gets 0.5 and 0.25 as
    they are, never cut to the whole numbers 0 and 0 without a word."""
    path = _file(tmp_path, "careful.py", """
    def make(caution=0.5):
        def agent(view):
            return "stock" if view.phase == "draw" else view.hand[0]
        return agent
    """)
    assert parse_strategy(f"{path}:make").kwargs == {"caution": 0.5}
    assert parse_strategy(f"{path}:make:caution=0.25").kwargs == {"caution": 0.25}


@pytest.mark.parametrize(("name", "source", "attribute", "message"), [
    ("none.py", "X = 1\n", "", "none.py defines no Family; name the strategy to play: "
                               "{path}:ATTRIBUTE"),
    ("two.py", "from fcsim.strategies.greedy import FAMILY as A\n"
               "from fcsim.strategies.random import FAMILY as B\n", "",
     "two.py defines 2 families (A, B); name"),
    ("has.py", "X = 1\n", ":Y", "strategy file {path} has no 'Y'"),
    ("syntax.py", "x = 1\ndef f(:\n", "", "cannot be loaded: SyntaxError: invalid syntax "
                                          "({path}, line 2)"),
    ("raises.py", "x = 1\nraise RuntimeError('no luck')\n", "",
     "cannot be loaded: RuntimeError: no luck ({path}, line 2)"),
])
def test_a_bad_file_is_one_line(tmp_path, plugins, name, source, attribute, message) -> None:
    path = _file(tmp_path, name, source)
    with pytest.raises(StrategyError) as err:
        parse_strategy(f"{path}{attribute}")
    assert message.format(path=path) in str(err.value) and "\n" not in str(err.value)
    if "cannot be loaded" in message:  # a file that failed is not left half-loaded
        assert module_name(path.resolve(), path.read_bytes()) not in sys.modules


def test_a_missing_file_is_one_line(tmp_path) -> None:
    with pytest.raises(StrategyError, match=r"strategy file .*nowhere.py: no such file"):
        parse_strategy(str(tmp_path / "nowhere.py"))


PLAY = """
import sys
import numpy as np
from fcsim.core.engine import play_games
from fcsim.core.rules import RuleSet
from fcsim.strategies import parse_strategy

play_games(np.array([1], np.uint64), np.array([[0, 1]], np.int8),
           [parse_strategy(sys.argv[1]), parse_strategy("random")], RuleSet(players=2))
"""


def test_kernels_cached_for_a_file_load_for_its_copy_elsewhere(tmp_path) -> None:
    """The cache is keyed by content, and a cached kernel names its module: a copy of a
    file at another path must load the kernels the original compiled (fresh processes)."""
    source = textwrap.dedent(STOCK_ONLY) + f"# {tmp_path}: content no run has compiled yet\n"
    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        folder.mkdir()
        _file(folder, "mine.py", source)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(),
                                                        os.environ.get("PYTHONPATH", "")]))
    for folder in (first, second):
        done = subprocess.run([sys.executable, "-c", PLAY, str(folder / "mine.py")], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
