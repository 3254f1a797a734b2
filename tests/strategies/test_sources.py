"""Where the code of an outside strategy comes from, as a run folder records it."""

from __future__ import annotations

import hashlib
import textwrap

from fcsim.strategies.sources import changed_sources, strategy_sources
from tests.conftest import STOCK_ONLY


def test_each_kind_of_outside_strategy_is_recorded_and_builtins_are_not(plugins,
                                                                          tmp_path) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    loose = tmp_path / "mine.py"
    loose.write_text(textwrap.dedent(STOCK_ONLY))
    sources = strategy_sources(["greedy", "stockonly:unused=2", str(loose),
                                "fcsim.strategies.random:FAMILY"])
    assert sources == {
        "fcsim.strategies.random:FAMILY": "module fcsim.strategies.random",
        str(loose): f"file {loose} sha256 {hashlib.sha256(loose.read_bytes()).hexdigest()}",
        "stockonly": "package fcsim-stockonly 0.1.0",
    }


def test_changes_are_told_in_words() -> None:
    before = {"a.py": "file /x/a.py sha256 " + "1" * 64, "p": "package fcsim-p 0.1.0"}
    after = {"a.py": "file /x/a.py sha256 " + "2" * 64, "p": "package fcsim-p 0.2.0"}
    assert changed_sources(before, before) == []
    assert changed_sources(before, after) == [
        "strategy file a.py changed since the run was written (sha256 111111111111 there, "
        "222222222222 here)",
        "strategy p was package fcsim-p 0.1.0 there, package fcsim-p 0.2.0 here"]
    assert changed_sources({}, {"p": "package fcsim-p 0.1.0"}) == [
        "strategy p was built in there, package fcsim-p 0.1.0 here"]
