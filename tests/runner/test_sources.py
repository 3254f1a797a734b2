"""Where the code of an outside strategy comes from, as a run folder records it."""

from __future__ import annotations

import hashlib
import textwrap

from fcsim.runner.sources import changed_sources, strategy_sources
from tests.conftest import STOCK_ONLY


def test_each_kind_of_outside_strategy_is_recorded_and_builtins_are_not(plugins,
                                                                          tmp_path) -> None:
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    loose = tmp_path / "mine.py"
    loose.write_text(textwrap.dedent(STOCK_ONLY))
    sources = strategy_sources(["greedy", "stockonly:unused=2", str(loose),
                                "fcsim.strategies.random:FAMILY"])
    module = hashlib.sha256(b"stock_only.py\0" + loose.read_bytes()).hexdigest()
    assert sources == {
        "fcsim.strategies.random:FAMILY": "module fcsim.strategies.random",
        str(loose): f"file {loose} sha256 {hashlib.sha256(loose.read_bytes()).hexdigest()}",
        "stockonly": f"package fcsim-stockonly 0.1.0 sha256 {module}",
    }


def test_a_plug_in_edited_in_place_is_a_change(plugins) -> None:
    """An editable install changes its code without a new version: the sources tell."""
    site = plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
                   {"stock_only.py": STOCK_ONLY})
    before = strategy_sources(["stockonly"])
    with (site / "stock_only.py").open("a") as module:
        module.write("# an edit\n")
    after = strategy_sources(["stockonly"])
    assert [change.split(" (")[0] for change in changed_sources(before, after)] == [
        "strategy code stockonly changed since the run was written"]


def test_a_module_spec_records_its_package_sources(plugins) -> None:
    site = plugins("fcsim-none", {}, {"mine/__init__.py": "", "mine/helpers.py": "X = 1\n",
                                      "mine/play.py": STOCK_ONLY})
    before = strategy_sources(["mine.play:FAMILY"])
    assert before["mine.play:FAMILY"].startswith("module mine.play sha256 ")
    (site / "mine" / "helpers.py").write_text("X = 2\n")  # code the strategy may import
    assert strategy_sources(["mine.play:FAMILY"]) != before


def test_a_module_spec_records_the_sources_of_its_subpackages_too(plugins) -> None:
    """A helper in a subpackage is code the strategy may import too: editing it is a
    change, so ``--resume`` does not mix games of two versions of the helper."""
    site = plugins("fcsim-none", {}, {"mine/__init__.py": "", "mine/play.py": STOCK_ONLY,
                                      "mine/tools/__init__.py": "",
                                      "mine/tools/helpers.py": "X = 1\n"})
    before = strategy_sources(["mine.play:FAMILY"])
    (site / "mine" / "tools" / "helpers.py").write_text("X = 2\n")
    assert strategy_sources(["mine.play:FAMILY"]) != before


def test_changes_are_told_in_words() -> None:
    before = {"a.py": "file /x/a.py sha256 " + "1" * 64, "p": "package fcsim-p 0.1.0",
              "q": "package fcsim-q 0.1.0 sha256 " + "3" * 64}
    after = {"a.py": "file /x/a.py sha256 " + "2" * 64, "p": "package fcsim-p 0.2.0",
             "q": "package fcsim-q 0.1.0 sha256 " + "4" * 64}
    assert changed_sources(before, before) == []
    assert changed_sources(before, after) == [
        "strategy file a.py changed since the run was written (sha256 111111111111 there, "
        "222222222222 here)",
        "strategy p was package fcsim-p 0.1.0 there, package fcsim-p 0.2.0 here",
        "strategy code q changed since the run was written (sha256 333333333333 there, "
        "444444444444 here)"]
    # a file is its content: the same bytes at another path are the same, other bytes not
    moved = {"a.py": "file /y/a.py sha256 " + "1" * 64}
    assert changed_sources(before, {**before, **moved}) == []
    assert changed_sources(before, {**before, "a.py": "file /y/a.py sha256 " + "2" * 64}) == [
        "strategy file a.py changed since the run was written (sha256 111111111111 there, "
        "222222222222 here)"]
    assert changed_sources({}, {"p": "package fcsim-p 0.1.0"}) == [
        "strategy p was not recorded there, package fcsim-p 0.1.0 here"]
    # a search run written before its anchor's model was recorded: it cannot be checked
    shipped = "file /fcsim/default_model.npz sha256 " + "5" * 64
    assert changed_sources({}, {"learned model": shipped}) == [
        f"strategy learned model was not recorded there, {shipped} here"]


def test_a_model_played_inside_a_search_is_recorded_as_if_listed(tmp_path) -> None:
    """A search's anchor or rollout policy plays its model as `learned` would: a changed
    file is a changed run (the search once recorded nothing, so --resume mixed models)."""
    from fcsim.strategies.learned.model import file_sha256
    from tests.learn.models import random_model

    model = random_model(tmp_path / "m.npz", seed=1)
    learned = f"learned:model={model}"
    inside = [f"search:anchor={learned}", f"search:rollout={learned}"]
    before = strategy_sources(inside[:1])
    assert before == {f"{learned} model": f"file {model} sha256 {file_sha256(model)}"}
    assert before == strategy_sources([learned])
    shipped = strategy_sources(["learned"])  # the search's default anchor plays it
    assert strategy_sources(["search"]) == shipped != {}
    assert strategy_sources(inside[1:]) == {**before, **shipped}
    random_model(model, seed=2)  # the file changes
    assert changed_sources(before, strategy_sources(inside[:1])) == [
        f"strategy file {learned} model changed since the run was written (sha256 "
        f"{before[f'{learned} model'][-64:][:12]} there, {file_sha256(model)[:12]} here)"]


def test_the_shipped_model_is_recorded_by_its_place_in_fcsim() -> None:
    """Not by the folder fcsim is installed in: runs of `learned` record the same metadata
    on every machine, and a committed report names no build machine's path."""
    from fcsim.strategies.learned.model import DEFAULT_MODEL, file_sha256

    assert strategy_sources(["learned"]) == {
        "learned model": ("file <fcsim>/strategies/learned/default_model.npz sha256 "
                          f"{file_sha256(DEFAULT_MODEL)}")}
