"""``learned`` against its twin: its features one by one, and its decisions on the shipped
model and on models of random weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fcsim.core.solver import new_scratch
from fcsim.core.tables import solver_table
from fcsim.strategies import parse_strategy
from fcsim.strategies.base import I_LAST_TURN, I_PLAYERS
from fcsim.strategies.expected import discard_candidates
from fcsim.strategies.learned.draw_features import N_DRAW_FEATURES, DrawFeature, draw_features
from fcsim.strategies.learned.features import N_FEATURES, Feature, discard_features
from fcsim.strategies.learned.model import RELATIVE
from tests.learn.models import random_model, tabled_model
from tests.reference.strategies import learned as twin
from tests.reference.strategies.view import view_from_arguments
from tests.strategies.positions import DISCARD, DRAW, disagreements, fast_decision, positions


def test_draws_match_the_twin(tmp_path: Path) -> None:
    """The shipped model, a model without a draw network (expected's draw) and random draw
    networks (other hidden sizes, margins either side of 0)."""
    plain = random_model(tmp_path / "plain.npz", hidden=3, seed=5)
    drawing = random_model(tmp_path / "drawing.npz", hidden=3, seed=6, draw_hidden=6)
    other = random_model(tmp_path / "other.npz", hidden=3, seed=8, draw_hidden=2)
    for spec in ("learned:take_margin=1.5", "learned:take_margin=-1.5",
                 f"learned:model={plain},take_margin=1.5",
                 f"learned:model={plain},take_margin=-1.5",
                 f"learned:model={drawing}", f"learned:model={other},take_margin=0.5"):
        assert disagreements(spec, DRAW, seed=91, count=44, last_share=0.2) == []


def test_a_last_draw_is_expected_s_whatever_the_draw_network_says(tmp_path: Path) -> None:
    """On a last turn the round ends with this draw: the exact rule decides. The same
    positions on an earlier turn show the draw network deciding otherwise (the test's
    teeth)."""
    model = random_model(tmp_path / "drawing.npz", hidden=3, seed=6, draw_hidden=6)
    drawing = parse_strategy(f"learned:model={model}")
    exact = parse_strategy("expected:take_margin=0")
    last = list(positions(93, 60, DRAW, last_share=1.0))
    assert [fast_decision(drawing, p) for p in last] == [fast_decision(exact, p) for p in last]
    for position in last:
        position.info[I_LAST_TURN] = 0
    assert [fast_decision(drawing, p) for p in last] != [fast_decision(exact, p) for p in last]


def test_every_discard_feature_equals_its_definition() -> None:
    """Each feature of each of a position's 6 best discards, against the twin's reading
    of ``FEATURES``' definitions (positions with a public history, every round, 2 to 7
    seats, the rule variants): a wrong feature fails here by name, even where a model's
    decision would not show it."""
    table, scratch = solver_table(), new_scratch()
    strategy = parse_strategy("aware")  # any fair strategy: the view is what counts
    for position in positions(94, 40, DISCARD):
        hand, pile, known, info, hidden, *_ = position.arguments(strategy)
        view = view_from_arguments(hand, pile, known, info, hidden)
        n, kinds, now, unseen, n_unseen = discard_candidates(hand, pile, known, info, table,
                                                             scratch, 6)
        for j in range(n):
            x = np.empty(N_FEATURES)
            discard_features(hand, kinds[j], now[j], known, info, unseen, n_unseen, table,
                             scratch, x)
            want = twin.features(view, int(kinds[j]))
            differ = {Feature(i).name: (x[i], want[i]) for i in range(N_FEATURES)
                      if not np.isclose(x[i], want[i])}
            assert not differ, f"{position.describe()}, discard {kinds[j]}: {differ}"


def test_every_draw_feature_equals_its_definition() -> None:
    """Which draws are weighed — the pile's card lowers the penalty now, or is near the
    hand — and each feature of a weighed draw, against the twin's reading of
    ``DRAW_FEATURES``. Draws of both kinds and draws not weighed all occur, so a gate that
    forgot one fails here."""
    table, scratch = solver_table(), new_scratch()
    strategy = parse_strategy("aware")  # any fair strategy: the view is what counts
    kinds = {"lower now": 0, "near only": 0, "not weighed": 0}
    for position in positions(95, 80, DRAW):
        hand, pile, known, info, hidden, *_ = position.arguments(strategy)
        view = view_from_arguments(hand, pile, known, info, hidden)
        x = np.zeros(N_DRAW_FEATURES)
        weighed = draw_features(hand, pile, known, info, table, scratch, x)
        want = twin.draw_features(view)
        assert weighed == (want is not None), position.describe()
        if want is None:
            kinds["not weighed"] += 1
            continue
        differ = {DrawFeature(i).name: (x[i], want[i]) for i in range(N_DRAW_FEATURES)
                  if not np.isclose(x[i], want[i])}
        assert not differ, f"{position.describe()}: {differ}"
        lower = x[DrawFeature.pile_penalty_now] < x[DrawFeature.penalty_now]
        kinds["lower now" if lower else "near only"] += 1
    assert min(kinds.values()) > 0, kinds


@pytest.mark.parametrize(("options", "count"), [("", 44), (",candidates=2", 30),
                                                 (",candidates=9", 20)])
def test_discards_match_the_twin(options: str, count: int, tmp_path: Path) -> None:
    """The shipped model and random ones (other weights, other hidden sizes, relative
    inputs), positions with a public history, a quarter of last turns."""
    model = random_model(tmp_path / "random.npz", hidden=7, seed=3)
    relative = random_model(tmp_path / "relative.npz", hidden=4, seed=4, inputs=RELATIVE)
    for spec in (f"learned:{options[1:]}" if options else "learned",
                 f"learned:model={model}{options}",
                 f"learned:model={relative}{options}"):
        assert disagreements(spec, DISCARD, seed=92, count=count, last_share=0.25) == []


def test_a_model_compares_as_many_candidates_as_it_was_fitted_on(tmp_path: Path) -> None:
    """Unless told otherwise, a model compares the number of candidates its metadata says
    it was fitted on (its relative inputs are relative to them): a model of 3 decides as
    ``candidates=3`` and as the twin, and at some positions otherwise than with 5 (the
    test's teeth)."""
    model = random_model(tmp_path / "k3.npz", hidden=4, seed=4, inputs=RELATIVE, candidates=3)
    plain, three, five = (parse_strategy(f"learned:model={model}{options}")
                          for options in ("", ",candidates=3", ",candidates=5"))
    differ = 0
    for position in positions(95, 60, DISCARD):
        decided = fast_decision(plain, position)
        assert decided == fast_decision(three, position), position.describe()
        differ += decided != fast_decision(five, position)
    assert differ > 0
    assert disagreements(f"learned:model={model}", DISCARD, seed=93, count=30,
                         last_share=0.1) == []


def test_a_table_s_own_networks_decide_there_and_the_main_ones_elsewhere(
        tmp_path: Path) -> None:
    """A model with networks of its own for 2 and 6 seats (relative inputs; at 6 no draw
    network: expected's draw) decides as the model file they came from at those tables and
    as its main model at the others, and agrees with the twin at every table size. At 2
    and 6 seats the main model would decide otherwise (the test's teeth)."""
    model = tabled_model(tmp_path, {2: 3, 6: 0}, seed=4)
    joined = parse_strategy(f"learned:model={model}")
    alone = {players: parse_strategy(f"learned:model={tmp_path / f'p{players}.npz'}")
             for players in (2, 4, 6)}
    for stage in (DISCARD, DRAW):
        tables, otherwise = set(), set()
        for position in positions(96, 70, stage, last_share=0.1):
            players = int(position.info[I_PLAYERS])
            source = alone.get(players if players in (2, 6) else 4)
            decided = fast_decision(joined, position)
            assert decided == fast_decision(source, position), position.describe()
            if decided != fast_decision(alone[4], position):
                otherwise.add(players)
            tables.add(players)
        assert tables == set(range(2, 8)) and otherwise == {2, 6}, stage
        assert disagreements(f"learned:model={model}", stage, seed=97, count=42,
                             last_share=0.1) == []


def test_learned_plays_as_an_agent_and_as_an_environments_opponent() -> None:
    import fcsim

    rules = fcsim.RuleSet(players=3, rounds=6)
    game = fcsim.Game(seed=4, rules=rules)
    totals = game.play([fcsim.agent("learned"), fcsim.agent("aware"), fcsim.agent("greedy")])
    assert game.over and len(totals) == 3
    env = pytest.importorskip("fcsim.env").FiveCrownsEnv(rules=rules, opponents="learned")
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].any()
