"""``fcsim new-strategy``: a small pip-installable package holding one strategy.

::

    fcsim-NAME/
      pyproject.toml          the package, and the entry point fcsim finds NAME by
      README.md               how to install, test, compare and share it
      fcsim_NAME/strategy.py  the starter strategy (numba or Python), one parameter
      tests/test_strategy.py  fcsim.testing.check_strategy, and a paired comparison to greedy

``pip install -e fcsim-NAME && pytest fcsim-NAME`` passes as written, and ``fcsim compare
NAME greedy`` works right after the install. Both starters play the same policy: take
the visible discard when it is a joker or a wild, or when it lowers the best penalty by
more than ``take_margin``; discard the card that leaves the least penalty.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

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
fcsim simulate --strategies $name:take_margin=2,greedy --games 10000 --out results/$name
```

Edit `fcsim_$name/strategy.py` (fcsim's `docs/STRATEGIES.md` describes everything a
strategy sees and the solver helpers it may call). To share the strategy, publish this
package (`python -m build`, then upload it) or push it to a repository: whoever installs
it can name `$name` in any fcsim command.
'''

NUMBA_STRATEGY = '''\
"""$name: takes a joker or a wild from the pile; otherwise plays like greedy.

A numba strategy is two decision functions fcsim calls in compiled code, both with the
same arguments (fcsim's docs/STRATEGIES.md has every field):

    hand     int8[56]     own cards, copies per kind: kind = suit * 11 + rank - 3 for
                          suits S H D C X and ranks 3..13 (J=11, Q=12, K=13); 55 = joker
    pile     int8[k]      the discard pile, bottom first: pile[-1] is the visible discard
    known    int8[P, 56]  cards known to be in each seat's hand (taken from the pile)
    info     int64[...]   public numbers, read by name: info[I_ROUND], info[I_WILD_RANK],
                          info[I_SEAT], info[I_STOCK_SIZE], info[I_TOTALS + seat], ...
    hidden   int8[0, 0]   empty: an honest strategy sees no hidden card
    params   float64[:]   the parameters declared below, read as params[Slot.name]
    table, scratch        the solver's table and work space: pass them to solver helpers
    rng      uint64[4]    the game's random stream (fcsim.core.rng.randbelow(rng, n))

draw returns DRAW_STOCK or DRAW_PILE; discard returns the kind of a card held. Leave the
arrays as you found them (fcsim.testing.check_strategy checks that).
"""

from fcsim.core.cards import JOKER, N_RANKS
from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_ROUND,
    I_WILD_POINTS,
    I_WILD_RANK,
    decision,
    param_slots,
)
from fcsim.strategies.candidates import pile_outlook
from fcsim.strategies.registry import Family, Param

PARAMS = (Param("take_margin", 0, "points the discard must save before it is taken",
                low=0, high=100),)
Slot = param_slots("Slot", PARAMS)
FIRST_RANK = 3  # kind % N_RANKS + FIRST_RANK is a natural card's rank


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The pile if its top card is wild, or saves more than take_margin points."""
    top = pile[pile.shape[0] - 1]
    if top == JOKER or top % N_RANKS + FIRST_RANK == info[I_WILD_RANK]:
        return DRAW_PILE
    now, after = pile_outlook(hand, pile, info[I_ROUND], info[I_WILD_POINTS],
                              info[I_ALL_WILD] == 1, table, scratch)
    return DRAW_PILE if after < now - params[Slot.take_margin] else DRAW_STOCK


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The card whose discard leaves the least penalty (the engine's exact answer)."""
    return info[I_BEST_DISCARD]


FAMILY = Family("$name", "Takes a joker or a wild from the pile; otherwise plays like greedy.",
                draw, discard, PARAMS)
'''

PYTHON_STRATEGY = '''\
"""$name: takes a joker or a wild from the pile; otherwise plays like greedy.

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
    view.info        the same numbers as an array (fcsim.core.view.I_* positions)

fcsim.min_penalty and fcsim.best_discard solve a hand exactly.
"""

import fcsim
from fcsim.core.cards import JOKER, format_card, parse_card, rank_of
from fcsim.core.view import I_ALL_WILD, I_BEST_DISCARD
from fcsim.strategies.registry import Family, Param


def scoring(view: fcsim.View) -> fcsim.RuleSet:
    """The rules of the view's round, as far as scoring a hand goes."""
    return fcsim.RuleSet(players=view.players, wild_penalty=view.wild_points,
                         all_wild_melds=bool(view.info[I_ALL_WILD]))


def make_agent(take_margin: int = 0):
    """An agent that takes a joker or a wild from the pile, or a discard that saves more
    than ``take_margin`` points, and discards the card leaving the least penalty."""

    def agent(view: fcsim.View) -> str:
        if view.phase == "discard":
            return format_card(int(view.info[I_BEST_DISCARD]))  # the engine's exact answer
        top = view.pile_top
        kind = parse_card(top)
        if kind == JOKER or rank_of(kind) == view.wild_rank:
            return "pile"
        rules = scoring(view)
        now = fcsim.min_penalty(view.hand, view.round, rules)
        _, after = fcsim.best_discard(view.hand + [top], view.round, rules)
        return "pile" if after < now - take_margin else "stock"

    return agent


FAMILY = Family("$name", "Takes a joker or a wild from the pile; otherwise plays like greedy.",
                agent=make_agent,
                params=(Param("take_margin", 0, "points the discard must save before it is "
                              "taken", low=0, high=100),))
'''

TESTS = '''\
"""$name plays by the rules, and how it does against greedy."""

from fcsim.testing import check_strategy, compare


def test_it_plays_by_the_rules():
    check_strategy("$name", games=$games)
    check_strategy("$name:take_margin=5", games=1)


def test_against_greedy():
    result = compare("$name", "greedy", deals=$deals)
    print(result)  # pytest -s shows it
    assert result.deals == $deals
    # Once $name should beat greedy, say so: assert result.mean_diff_hi < 0
'''


class ScaffoldError(ValueError):
    """A name or folder the scaffold cannot use (the message says why)."""


def check_name(name: str) -> None:
    """Raise unless ``name`` can name a new strategy and its package."""
    from fcsim.strategies.plugins import declared
    from fcsim.strategies.registry import lookup

    if not NAME.fullmatch(name):
        raise ScaffoldError(f"bad strategy name {name!r}: lower-case letters, digits and '_', "
                            "starting with a letter")
    if lookup(name) is not None or name in declared():
        raise ScaffoldError(f"a strategy named {name!r} exists already; choose another name")


def write_package(name: str, kind: str, out: Path) -> list[Path]:
    """Write the package of strategy ``name`` (``kind`` numba or python) into ``out``,
    which must not exist or be empty; returns the files written."""
    check_name(name)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ScaffoldError(f"{out} exists and is not an empty folder; choose another --out")
    # a Python agent plays more slowly: a shorter comparison keeps `pytest` quick
    numba = kind == "numba"
    values = {"name": name, "kind": kind, "deals": 40 if numba else 10, "games": 4 if numba else 2}
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
