"""Common random numbers, runs handed on in chunk order, early stops, resume, the pool."""

from __future__ import annotations

import numpy as np

from fcsim.runner.format import part_files
from fcsim.runner.plan import chunk_layout
from fcsim.tune.arena import chunk_deals, folder_name
from fcsim.tune.deals import DealResults
from tests.tune.helpers import make_search


def same(a: DealResults, b: DealResults) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n))
               for n in ("deal", "advantage", "total", "wins", "seat_games"))


def test_every_candidate_plays_the_same_deals_and_seats(tmp_path) -> None:
    arena = make_search(tmp_path).arena
    one, other = arena.plan("greedy", 5, 12), arena.plan("greedy:take_margin=4", 5, 12)
    assert one.chunk_count == other.chunk_count == 3
    assert one.strategies == ("greedy",) * 4
    assert other.strategies == ("greedy:take_margin=4", "greedy") * 2  # only the candidate's
    for index in range(one.chunk_count):
        a, b = chunk_layout(one, index), chunk_layout(other, index)
        for name in ("seeds", "deal", "rotation"):  # the same deal, in the same rotation
            assert np.array_equal(getattr(a, name), getattr(b, name))


def test_equal_parameters_give_identical_results(tmp_path, pool) -> None:
    here = make_search(tmp_path / "here").play("greedy:take_margin=2")
    spec = "greedy:take_margin=2.0"  # the same parameters written otherwise …
    there = make_search(tmp_path / "there", executor=pool).play(spec)  # … on two workers
    assert here.deals == 12 and same(here, there)
    assert not same(here, make_search(tmp_path / "other").play("greedy:take_margin=3"))


def test_a_stopped_run_ends_at_a_chunk_and_the_pool_stays(tmp_path, pool) -> None:
    search = make_search(tmp_path, deals=40, executor=pool)
    played, seen = [], []
    stopped = search.arena.play("greedy:take_margin=5", 5, 40, tmp_path / "a",
                                lambda part: seen.append(part.deal[0]) or len(seen) < 2)
    assert stopped.deals == 2 * chunk_deals(40) and seen == [0, chunk_deals(40)]
    search.arena.on_games = played.append
    whole = search.play("greedy:take_margin=5")  # the same pool plays on; files are reused
    assert whole.deals == 40 and same(DealResults.concat([stopped]), _head(whole, 10))
    assert sum(played) == 40 * 2  # greedy alternating with the field: 2 distinct rotations


def _head(results: DealResults, deals: int) -> DealResults:
    return DealResults(*(getattr(results, n)[:deals]
                         for n in ("deal", "advantage", "total", "wins", "seat_games")))


def test_a_run_with_lost_chunks_resumes_to_the_same_results(tmp_path) -> None:
    search = make_search(tmp_path, deals=20)
    first = search.play("greedy")
    folder = tmp_path / "runs" / folder_name("greedy")
    files = part_files(folder)
    assert len(files) == 5
    for index in (1, 3):
        files[index].unlink()
    again = search.play("greedy")
    assert same(first, again) and len(part_files(folder)) == 5


def test_folder_names() -> None:
    assert folder_name("aware:candidates=5,urgency=0.25") == "aware_candidates=5_urgency=0.25"
    assert chunk_deals(500) == 63 and chunk_deals(3) == 4 and chunk_deals(10**6) == 2500
