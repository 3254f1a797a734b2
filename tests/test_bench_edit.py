"""``scripts/bench_edit.py``: every run's edits are content no earlier run had (the kernel
cache is keyed on content, so a repeated edit would be a cache hit, not a compile), and
they compile into a copy of the usual cache, never into it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import bench_edit  # noqa: E402


def test_each_run_edits_anew_into_a_copy_of_the_cache(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    usual = tmp_path / "cache"
    (usual / "numba" / "fcsim.core.engine-0123").mkdir(parents=True)
    monkeypatch.setenv("FCSIM_CACHE_DIR", str(usual))
    edits, caches = [], []

    def first_game(tree: bench_edit.Tree) -> tuple[float, float]:
        """Stands for a game: 'compiles' the greedy.py it finds into the tree's cache."""
        source = tree.greedy.read_text()
        edits.append(source)
        caches.append(tree.cache)
        assert (tree.cache / "numba" / "fcsim.core.engine-0123").is_dir()
        (tree.cache / "numba" / f"fcsim.strategies.greedy-{hash(source):x}").mkdir(
            exist_ok=True)
        return 0.0, 0.0

    monkeypatch.setattr(bench_edit, "first_game", first_game)
    for _ in range(2):
        monkeypatch.setattr(sys, "argv", ["bench_edit.py"])
        bench_edit.main()
    edited = [source for source in edits if source != edits[0]]
    assert len(edited) == 2 and edited[0] != edited[1]
    assert usual not in caches
    assert [p.name for p in (usual / "numba").iterdir()] == ["fcsim.core.engine-0123"]
