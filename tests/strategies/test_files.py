"""Strategies in loose files: ``path/to/file.py[:attribute][:key=value]``."""

from __future__ import annotations

import hashlib
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
    name = module_name(path.resolve())
    assert name.startswith("fcsim_file_stock_only_") and name in sys.modules
    assert name == module_name(path.resolve())  # whatever process computes it
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
        assert module_name(path.resolve()) not in sys.modules


def test_a_missing_file_is_one_line(tmp_path) -> None:
    with pytest.raises(StrategyError, match=r"strategy file .*nowhere.py: no such file"):
        parse_strategy(str(tmp_path / "nowhere.py"))
