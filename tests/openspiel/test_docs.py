"""docs/OPENSPIEL.md's Python examples run as shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

DOC = Path(__file__).resolve().parents[2] / "docs" / "OPENSPIEL.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) == 3


@pytest.mark.slow
@pytest.mark.parametrize("block", range(len(BLOCKS)))
def test_each_example_runs(block, capsys) -> None:
    exec(compile(BLOCKS[block], f"{DOC.name} example {block + 1}", "exec"), {})
    if block == 0:
        assert capsys.readouterr().out.startswith("[0, 1]\np")
