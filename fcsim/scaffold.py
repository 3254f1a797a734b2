"""``fcsim new-strategy``: a small pip-installable package holding one strategy.

::

    fcsim-NAME/
      pyproject.toml          the package, and the entry point fcsim finds NAME by
      README.md               how to install, test, compare and share it
      fcsim_NAME/strategy.py  the starter strategy (numba or Python), one parameter
      tests/test_strategy.py  fcsim.testing.check_strategy, and a paired comparison to greedy

``pip install -e fcsim-NAME && pytest fcsim-NAME`` passes as written, and ``fcsim compare
NAME greedy`` works right after the install. Both starters play the same policy: take
the visible discard only when it saves more than ``take_margin`` points (2; on a last
turn, any saving); discard the card that leaves the least penalty.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from fcsim.errors import FcsimError

KINDS = ("numba", "python")
NAME = re.compile(r"[a-z][a-z0-9_]*")

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "fcsim-$name"
version = "0.1.0"
description = "$name: a Five Crowns strategy for fcsim"
requires-python = ">=3.11"
dependencies = ["fcsim"]

[project.optional-dependencies]
test = ["pytest"]

# fcsim finds the strategy by this name: `fcsim compare $name greedy`
[project.entry-points."fcsim.strategies"]
$name = "fcsim_$name.strategy:FAMILY"

[tool.setuptools]
packages = ["fcsim_$name"]

[tool.ruff]
line-length = 100

[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["ignore::numba.NumbaExperimentalFeatureWarning"]
'''

README = '''\
# fcsim-$name

A $kind strategy for fcsim, the Five Crowns simulator.

```bash
pip install -e .                      # fcsim now knows the strategy `$name`
pytest                                # it plays by the rules; how it does against greedy
fcsim compare $name greedy --deals 2000
fcsim simulate --strategies $name:take_margin=4,greedy --games 10000 --out results/$name
```

Edit `fcsim_$name/strategy.py` (fcsim's `docs/STRATEGIES.md` describes everything a
strategy sees and the solver helpers it may call). To share the strategy, publish this
package (`python -m build`, then upload it) or push it to a repository: whoever installs
it can name `$name` in any fcsim command.
'''

NUMBA_STRATEGY = '''\
"""$name: greedy that asks more of the discard pile, except on a last turn.

A numba strategy is two decision functions fcsim calls in compiled code, both with the
same arguments (fcsim's docs/STRATEGIES.md has every field):

    hand     int8[56]     own cards, copies per kind: kind = suit * 11 + rank - 3 for
                          suits S H D C X and ranks 3..13 (J=11, Q=12, K=13); 55 = joker
    pile     int8[k]      the discard pile, bottom first: pile[-1] is the visible discard
    known    int8[P, 56]  cards known to be in each seat's hand (taken from the pile)
    info     int64[...]   public numbers, read by name: info[I_ROUND], info[I_WILD_RANK],
                          info[I_SEAT], info[I_LAST_TURN], info[I_TOTALS + seat], ...
    hidden   int8[0, 0]   empty: an honest strategy sees no hidden card
    params   float64[:]   the parameters declared below, read as params[Slot.name]
    table, scratch        the solver's table and work space: pass them to solver helpers
    rng      uint64[4]    the seat's own random stream (fcsim.core.rng.randbelow(rng, n))

draw returns DRAW_STOCK or DRAW_PILE; discard returns the kind of a card held. Leave the
arrays as you found them (fcsim.testing.check_strategy checks that).
"""

from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_LAST_TURN,
    I_ROUND,
    I_WILD_POINTS,
    decision,
    param_slots,
)
from fcsim.strategies.candidates import pile_outlook
from fcsim.strategies.registry import Family, Param

PARAMS = (Param("take_margin", 2, "points the discard must save before it is taken (any "
                "saving on a last turn)", low=0, high=100),)
Slot = param_slots("Slot", PARAMS)


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The pile if its top card saves more than take_margin points (any, on a last turn)."""
    margin = 0.0 if info[I_LAST_TURN] == 1 else params[Slot.take_margin]
    now, after = pile_outlook(hand, pile, info[I_ROUND], info[I_WILD_POINTS],
                              info[I_ALL_WILD] == 1, table, scratch)
    return DRAW_PILE if after < now - margin else DRAW_STOCK


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The card whose discard leaves the least penalty (the engine's exact answer)."""
    return info[I_BEST_DISCARD]


FAMILY = Family("$name", "Greedy that takes the discard only when it saves more than "
                "take_margin points (any saving on a last turn).", draw, discard, PARAMS)
'''

PYTHON_STRATEGY = '''\
"""$name: greedy that asks more of the discard pile, except on a last turn.

A Python strategy is an agent factory: called with the parameters, it returns an agent,
a function from what the seat sees (a fcsim.View) to a move: "stock" or "pile" when
drawing, a card such as "7H" when discarding. The view (fcsim's docs/STRATEGIES.md has
every field):

    view.phase       "draw" or "discard"
    view.hand        own cards, e.g. ["3H", "7S", "JK"]; view.pile_top the visible discard
    view.pile        the discard pile, bottom first; view.known: cards known per seat
    view.round, view.wild_rank, view.seat, view.players, view.turn, view.scores,
    view.hand_sizes, view.stock_size, view.last_turn, view.out_seat, view.wild_points
    view.legal_actions  every legal move
    view.hand_counts, view.pile_kinds, view.known_counts, view.info: the same as arrays,
                     which the solver helpers take (fcsim.core.view.I_* name info's slots)

fcsim.min_penalty(cards, round) and fcsim.best_discard(cards, round) solve a hand from
its card codes; the numba helper used below does the same from the view's arrays, some
hundred times faster.
"""

from fcsim.core.cards import format_card
from fcsim.core.state import shared_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import I_ALL_WILD, I_BEST_DISCARD
from fcsim.strategies.candidates import pile_outlook
from fcsim.strategies.registry import Family, Param


def make_agent(take_margin: int = 2):
    """An agent that takes the discard only when it saves more than ``take_margin``
    points (any saving on a last turn), and discards the card leaving the least penalty."""

    def agent(view):
        if view.phase == "discard":
            return format_card(int(view.info[I_BEST_DISCARD]))  # the engine's exact answer
        margin = 0 if view.last_turn else take_margin
        # the penalty now, and the least after taking the pile's top card and discarding
        now, after = pile_outlook(view.hand_counts, view.pile_kinds, view.round,
                                  view.wild_points, bool(view.info[I_ALL_WILD]),
                                  solver_table(), shared_scratch())
        return "pile" if after < now - margin else "stock"

    return agent


FAMILY = Family("$name", "Greedy that takes the discard only when it saves more than "
                "take_margin points (any saving on a last turn).", agent=make_agent,
                params=(Param("take_margin", 2, "points the discard must save before it "
                              "is taken (any saving on a last turn)", low=0, high=100),))
'''

TESTS = '''\
"""$name plays by the rules, and how it does against greedy."""

from fcsim.testing import check_strategy, compare


def test_it_plays_by_the_rules():
    check_strategy("$name", games=$games)
    check_strategy("$name:take_margin=0", games=1)


def test_against_greedy():
    result = compare("$name", "greedy", deals=$deals)
    print(result)  # pytest -s shows it
    assert result.deals == $deals
    # Once $name should beat greedy, say so: assert result.mean_diff_hi < 0
'''


class ScaffoldError(FcsimError, ValueError):
    """A name or folder the scaffold cannot use (the message says why)."""


def check_name(name: str) -> None:
    """Raise unless ``name`` can name a new strategy and its package."""
    from fcsim.strategies.plugins import declared
    from fcsim.strategies.registry import lookup
    from fcsim.strategies.spec import SPEC_PREFIXES

    if not NAME.fullmatch(name):
        raise ScaffoldError(f"bad strategy name {name!r}: lower-case letters, digits and '_', "
                            "starting with a letter")
    if lookup(name) is not None or name in declared():
        raise ScaffoldError(f"a strategy named {name!r} exists already; choose another name")
    if name in SPEC_PREFIXES:  # a spec that starts with it names one of those strategies
        raise ScaffoldError(f"{name!r} names a family of strategies ({name}:NAME); choose "
                            f"another name")


def write_package(name: str, kind: str, out: Path) -> list[Path]:
    """Write the package of strategy ``name`` (``kind`` numba or python) into ``out``,
    which must not exist or be empty; returns the files written."""
    check_name(name)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ScaffoldError(f"{out} exists and is not an empty folder; choose another --out")
    # a Python agent plays more slowly: a shorter comparison keeps `pytest` quick
    numba = kind == "numba"
    values = {"name": name, "kind": kind, "deals": 40 if numba else 20, "games": 4 if numba else 2}
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"fcsim_{name}/__init__.py": '"""$name, a strategy for fcsim."""\n',
        f"fcsim_{name}/strategy.py": NUMBA_STRATEGY if kind == "numba" else PYTHON_STRATEGY,
        "tests/test_strategy.py": TESTS,
    }
    written = []
    for relative, template in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(template).substitute(values))
        written.append(path)
    return written
