"""Which code played a strategy from outside fcsim, as a run folder records it.

A run is a pure function of its inputs and of the code that plays it. For a strategy in a
loose file that code is the file, so a run records its path and the digest of the content
that was loaded; for a plug-in, its package and version. ``--resume`` compares the record
with what the specs load now and refuses a run whose strategy code changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from fcsim.strategies.files import file_digest, is_file_spec, split_file_spec
from fcsim.strategies.learned.model import file_sha256, model_path
from fcsim.strategies.registry import Strategy, parse_strategy

FCSIM = "fcsim"


def strategy_sources(strategies: Sequence[str | Strategy]) -> dict[str, str]:
    """Per strategy name played from outside fcsim, where its code comes from:
    ``file PATH sha256 DIGEST`` or ``package NAME VERSION`` (modules: ``module NAME``);
    per file parameter (a model), ``file PATH sha256 DIGEST`` under ``SPEC PARAMETER``."""
    sources = {}
    for item in strategies:
        strategy = parse_strategy(item)
        family = strategy.family
        for name, path in strategy.paths.items():  # a model: data, digested like code
            file = model_path(path)
            sources[f"{strategy.spec} {name}"] = f"file {file} sha256 {file_sha256(file)}"
        if family.source == FCSIM:
            continue
        if is_file_spec(family.name):
            path = split_file_spec(family.name)[0]
            sources[family.name] = f"file {family.source} sha256 {file_digest(path)}"
        elif family.name == family.source or ":" in family.name:
            sources[family.name] = f"module {family.source}"
        else:
            sources[family.name] = f"package {family.source}"
    return dict(sorted(sources.items()))


def changed_sources(recorded: dict[str, str], current: dict[str, str]) -> list[str]:
    """How the strategy code a run recorded differs from the code the specs load now."""
    changes = []
    for name in sorted(set(recorded) | set(current)):
        before, now = recorded.get(name), current.get(name)
        if before == now:
            continue
        if before and now and before.startswith("file ") and now.startswith("file "):
            changes.append(f"strategy file {name} changed since the run was written "
                           f"(sha256 {before.rpartition(' ')[2][:12]} there, "
                           f"{now.rpartition(' ')[2][:12]} here)")
        else:
            changes.append(f"strategy {name} was {before or 'built in'} there, "
                           f"{now or 'built in'} here")
    return changes
