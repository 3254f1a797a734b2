"""The figures a chart module saves, kept to be read back: what a chart draws, not only
that its PNG is valid."""

from __future__ import annotations

from types import ModuleType

import pytest
from matplotlib.figure import Figure


def saved_figures(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[Figure]:
    """Each figure ``module``'s charts pass to its ``save_figure``, in order (still saved)."""
    figures: list[Figure] = []
    save = module.save_figure
    monkeypatch.setattr(module, "save_figure",
                        lambda fig, path: figures.append(fig) or save(fig, path))
    return figures
