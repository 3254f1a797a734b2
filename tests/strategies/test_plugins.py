"""Plug-ins: strategies of installed packages, found by entry point, lazily, by name."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import fcsim
from fcsim.core.engine import play_games
from fcsim.core.rules import RuleSet
from fcsim.strategies import StrategyError, families, parse_strategy
from fcsim.strategies.plugins import PluginWarning, load_plugins
from tests.compiled import requires_jit
from tests.conftest import STOCK_ONLY, WILD_TAKER

BROKEN = "import no_such_dependency\n"


def _two_games(strategies: list) -> np.ndarray:
    seeds = np.array([3, 4], np.uint64)
    seating = np.array([[0, 1], [1, 0]], np.int8)
    return play_games(seeds, seating, strategies, RuleSet(players=2, rounds=6)).total


def test_a_numba_plugin_is_found_by_name_with_its_package_and_parameters(plugins) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    strategy = parse_strategy("StockOnly:unused=3")
    assert strategy.spec == "stockonly:unused=3" and strategy.family.is_numba
    assert strategy.family.source == "fcsim-stockonly 0.1.0"
    assert _two_games([strategy, parse_strategy("random")]).shape == (2, 2)


def test_a_python_agent_factory_plugin_takes_its_parameters(plugins) -> None:
    plugins("fcsim-wild", {"wildtaker": "wild_taker:make_agent"},
            {"wild_taker.py": WILD_TAKER})
    strategy = parse_strategy("wildtaker:patience=2")
    assert not strategy.family.is_numba and strategy.kwargs == {"patience": 2}
    assert strategy.family.description == "Takes a wild from the pile; otherwise plays greedy."
    assert _two_games([strategy, parse_strategy("greedy")]).shape == (2, 2)
    with pytest.raises(StrategyError, match="its parameters: patience"):
        parse_strategy("wildtaker:speed=1")


def test_discovery_is_lazy_and_a_broken_plugin_breaks_nothing_else(plugins) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    plugins("fcsim-broken", {"broken": "broken_mod:FAMILY"}, {"broken_mod.py": BROKEN})
    parse_strategy("greedy")
    assert "stock_only" not in sys.modules  # nothing is imported for a registered name
    assert parse_strategy("stockonly").name == "stockonly"
    assert "broken_mod" not in sys.modules
    with pytest.raises(StrategyError) as err:
        parse_strategy("broken")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("strategy 'broken' from package fcsim-broken 0.1.0 cannot be "
                              "loaded (broken_mod:FAMILY): ModuleNotFoundError: No module "
                              "named 'no_such_dependency' (")
    assert "broken_mod.py, line 1)" in message


def test_load_plugins_warns_once_per_plugin_left_out(plugins) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    plugins("fcsim-broken", {"broken": "broken_mod:FAMILY"}, {"broken_mod.py": BROKEN})
    plugins("fcsim-twin-a", {"twin": "stock_only:FAMILY"}, {})
    plugins("fcsim-twin-b", {"twin": "wild_taker:make_agent"}, {"wild_taker.py": WILD_TAKER})
    plugins("fcsim-shadow", {"greedy": "stock_only:FAMILY", "bad:name": "stock_only:FAMILY"},
            {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = load_plugins()
    assert [f.name for f in loaded] == ["stockonly"]
    assert "stockonly" in [f.name for f in families()]
    messages = sorted(str(w.message) for w in caught if w.category is PluginWarning)
    assert len(messages) == 4, messages
    assert any("fcsim-broken 0.1.0 cannot be loaded" in m for m in messages)
    assert any("'twin' is declared by two packages, fcsim-twin-a 0.1.0 and fcsim-twin-b "
               "0.1.0" in m for m in messages)
    assert any("fcsim-shadow 0.1.0 declares strategy 'greedy', which fcsim has already "
               "(fcsim)" in m for m in messages)
    assert any("'bad:name', which no spec can name" in m for m in messages)
    assert parse_strategy("greedy").family.source == "fcsim"
    with pytest.raises(StrategyError, match="declared by two packages"):
        parse_strategy("twin")


def test_an_entry_point_to_something_else_names_the_package(plugins) -> None:
    plugins("fcsim-odd", {"odd": "odd_mod:NOT_A_STRATEGY", "needy": "odd_mod:needy"},
            {"odd_mod.py": "NOT_A_STRATEGY = 3\ndef needy(view, other):\n    pass\n"})
    with pytest.raises(StrategyError, match=r"package fcsim-odd 0.1.0: strategy 'odd': int "
                                            r"is not a strategy"):
        parse_strategy("odd")
    with pytest.raises(StrategyError, match="takes view, other without defaults"):
        parse_strategy("needy")


def test_unknown_names_list_the_plugins_too(plugins) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    with pytest.raises(StrategyError, match=r"known strategies: random, greedy, .*stockonly "
                                            r"\(or path/to/file.py, or module:attribute"):
        parse_strategy("stokonly")


CALLER = """
    from fcsim.strategies.base import I_BEST_DISCARD, decision
    from fcsim.strategies.registry import Family
    from {helper} import choice

    @decision
    def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
        return choice()

    @decision
    def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
        return info[I_BEST_DISCARD]

    FAMILY = Family("caller", "draws where its helper says", draw, discard)
"""
HELPER = """
    from numba import njit

    @njit(cache=True)
    def choice():
        return {value}
"""
DRAW_ONCE = """
import numpy as np
from fcsim.core.solver import new_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import INFO_SIZE, NO_HIDDEN
from fcsim.strategies import parse_strategy

draw = parse_strategy("caller").draw
print(draw(np.zeros(56, np.int8), np.zeros(1, np.int8), np.zeros((2, 56), np.int8),
           np.zeros(INFO_SIZE, np.int64), NO_HIDDEN, np.zeros(1), solver_table(),
           new_scratch(), np.ones(4, np.uint64)), sum(draw.stats.cache_hits.values()))
"""


@requires_jit
def test_an_edited_plugin_helper_is_never_served_stale(plugins, tmp_path) -> None:
    """A plug-in's kernels are cached with everything the plug-in imports: editing a
    helper module of the plug-in recompiles the decision that calls it (fresh processes,
    found by entry point; numba's own cache would have served the old helper)."""
    # a module name (and so content) no earlier run has cached
    helper = f"caller_helper_{hashlib.sha256(str(tmp_path).encode()).hexdigest()[:12]}"
    site = plugins("fcsim-caller", {"caller": "caller_mod:FAMILY"},
                   {"caller_mod.py": CALLER.format(helper=helper),
                    f"{helper}.py": HELPER.format(value=0)})

    def draw_once() -> tuple[int, int]:
        done = subprocess.run([sys.executable, "-c", DRAW_ONCE], capture_output=True,
                              text=True, env=os.environ)
        assert done.returncode == 0, done.stderr[-2000:]
        value, hits = done.stdout.split()
        return int(value), int(hits)

    assert draw_once() == (0, 0)  # compiled
    assert draw_once() == (0, 1)  # from the cache
    (site / f"{helper}.py").write_text(textwrap.dedent(HELPER.format(value=1)))
    assert draw_once() == (1, 0)  # caller_mod.py unchanged, yet compiled again


def test_game_and_agent_take_plugins(plugins) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    game = fcsim.Game(players=2, seed=3)
    totals = game.play([fcsim.agent("stockonly"), fcsim.agent("greedy")])
    assert game.over and len(totals) == 2
