"""The documentation site builds with warnings as errors (``mkdocs build --strict``): a
broken link, a missing page or an API reference that names what no longer exists fails
here. CI installs the ``docs`` extra; without mkdocs the build fails in CI (``$CI`` set)
and is skipped elsewhere, saying so."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fcsim
from fcsim.analysis.synthetic import write_synthetic_run

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def mkdocs_missing() -> str | None:
    """Why the site cannot be built here, or None."""
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            return f"{module} is not installed (pip install -e '.[docs]')"
    return None


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    reason = mkdocs_missing()
    if reason is not None:
        if _in_ci():
            pytest.fail(f"the documentation build needs the docs extra in CI: {reason}")
        pytest.skip(f"the site is not built here: {reason}")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict",
         "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "reference" / "game.html").exists()


def test_every_guide_is_in_the_nav() -> None:
    """Every page of docs/ has its line in ``mkdocs.yml``'s nav (checked without mkdocs
    too: the strict build fails on a page left out)."""
    config = (ROOT / "mkdocs.yml").read_text()
    pages = [p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")]
    assert pages
    assert [p for p in pages if f": {p}" not in config] == []


def test_no_page_links_outside_the_docs() -> None:
    """A relative link out of docs/ (``../fcsim/…``) works on GitHub and breaks the site:
    name such a path as code instead."""
    bad = [f"{page.name}: {line.strip()}" for page in DOCS.rglob("*.md")
           for line in page.read_text().splitlines() if "](../" in line
           and page.parent == DOCS]
    assert bad == []


def _documented() -> tuple[set[str], set[str]]:
    """Every name the API reference pages show, in full (``fcsim.advice.advise``): a
    ``::: name`` block, or the ``members: [...]`` of a ``::: module`` block; and those
    modules."""
    names, modules = set(), set()
    for page in (DOCS / "reference").glob("*.md"):
        for block in page.read_text().split(":::")[1:]:
            target = block.split()[0]
            members = re.search(r"members: \[([^\]]*)\]", block)
            if members is None:
                names.add(target)
            else:
                modules.add(target)
                names.update(f"{target}.{m.strip()}" for m in members[1].split(","))
    return names, modules


def _resolve(name: str) -> object:
    """The object a full name (``fcsim.core.solver.min_penalty``) names."""
    module, attr = name.rsplit(".", 1)
    return getattr(importlib.import_module(module), attr)


def test_the_reference_shows_every_public_name() -> None:
    """Each name of ``fcsim.__all__`` has its entry in docs/reference/, and so has each name
    of the ``__all__`` of a module the reference shows by members."""
    documented, modules = _documented()
    public = {f"fcsim.{name}" for name in fcsim.__all__ if name != "__version__"}
    for module in modules:
        public.update(f"{module}.{name}"
                      for name in getattr(importlib.import_module(module), "__all__", ()))
    shown = {id(_resolve(name)) for name in documented}
    assert sorted(name for name in public if id(_resolve(name)) not in shown) == []


def test_the_architecture_places_every_package() -> None:
    """docs/ARCHITECTURE.md's "Where the code lives" names every package of fcsim."""
    text = (DOCS / "ARCHITECTURE.md").read_text()
    where = text[text.index("## Where the code lives"):]
    packages = sorted({path.parent for path in (ROOT / "fcsim").rglob("__init__.py")})
    assert [p.name for p in packages[1:] if f"{p.name}/" not in where] == []


# A cross-reference in a docstring by its full name: :func:`fcsim.core.solver.min_penalty`.
FULL_REFERENCE = re.compile(r":(?:func|class|mod|data|meth|attr):`~?(fcsim(?:\.\w+)+)`")


def _resolves(name: str) -> bool:
    """Whether ``name`` is a module of fcsim or an attribute reached from one."""
    module, attributes = name, []
    while module:
        try:
            found: object = importlib.import_module(module)
        except ImportError:
            module, _, last = module.rpartition(".")
            attributes.insert(0, last)
            continue
        for attribute in attributes:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_full_reference_of_a_docstring_resolves() -> None:
    """A docstring that names a module, function or class of fcsim in full names one that
    is there (optional extras' modules are left to the builds that install them)."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    broken = [f"{path.relative_to(ROOT)}: {name}"
              for path in sorted((ROOT / "fcsim").rglob("*.py"))
              for name in FULL_REFERENCE.findall(path.read_text()) if not _resolves(name)]
    assert broken == []


def _python_example(page: str) -> str:
    """The one Python block of the API reference page ``page``."""
    text = (DOCS / "reference" / page).read_text()
    (example,) = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    return example


def test_the_analysis_reference_s_example_runs(tmp_path: Path) -> None:
    """The Python example of docs/reference/analysis.md runs as written, on a run played
    with decision rows whose strategies it names."""
    run = write_synthetic_run(tmp_path / "my-run", ["learned", "aware"], [0.2, 0.0], games=40,
                              seed=1, decisions=True)
    example = _python_example("analysis.md")
    assert example.count("results/my-run") == 2
    exec(example.replace("results/my-run", str(run)), {})  # the page's own code


def test_the_strategy_reference_s_example_plays(tmp_path: Path) -> None:
    """The example of docs/reference/strategies.md, saved as a file, is a strategy: it
    plays a short game as an agent, every draw from the stock
    (``fcsim.testing.check_strategy`` on strategies written this way is tested on the
    scaffold's starters, tests/test_scaffold.py)."""
    path = tmp_path / "stock_only.py"
    path.write_text(_python_example("strategies.md"))
    agent = fcsim.agent(f"{path}:take_margin=3")
    game = fcsim.Game(seed=1, rules=fcsim.RuleSet(players=2, rounds=6))
    while not game.over:
        move = agent(game.view())
        if game.phase == "draw":
            assert move == "stock"
        game.step(move)
