"""fcsim play: a whole game typed on standard input, re-prompts, quitting, honest output."""

from __future__ import annotations

import builtins
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import fcsim
from fcsim.cli import cli, play
from tests.waiting import default_sigint

RULES = fcsim.RuleSet(players=3, rounds=6)
ARGS = ["play", "--seed", "5", "--game", "2", "--strategies", "greedy,random", "--seat", "1",
        "--short"]


def _typed(card: str) -> str:
    return card.lower().replace("10", "t")  # cards as a person may type them


def scripted_game(seat: int = 1) -> tuple[list[tuple[str, list[str], str]], fcsim.Game]:
    """What a person at ``seat`` types to play the game of ARGS (stock unless the pile's
    top is wild, then the highest card) as (phase, hand, line) per prompt, and that game
    played through fcsim.Game."""
    game = fcsim.Game(seed=5, game=2, rules=RULES)
    agents = {0: fcsim.agent("greedy"), 2: fcsim.agent("random")}
    prompts = []
    while not game.over:
        view = game.view()
        if game.to_move != seat:
            game.step(agents[game.to_move](view))
            continue
        if view.phase == "draw":
            wild = view.pile_top == "JK" or view.pile_top[:-1] == str(view.wild_rank)
            prompts.append(("draw", view.hand, "p" if wild else "stock"))
            game.step("pile" if wild else "stock")
        else:
            prompts.append(("discard", view.hand, _typed(view.legal_actions[-1])))
            game.step(view.legal_actions[-1])
    return prompts, game


def _lines(prompts) -> list[str]:
    return [line for _, _, line in prompts]


def _names(event_totals: list[int]) -> str:
    names = ["seat 0 (greedy)", "you", "seat 2 (random)"]
    return ", ".join(f"{n} {t}" for n, t in zip(names, event_totals, strict=True))


def test_a_whole_game_from_standard_input() -> None:
    prompts, game = scripted_game()
    first = next(i for i, (phase, _, _) in enumerate(prompts) if phase == "discard")
    lines = _lines(prompts)
    unheld = next(c for c in ("KX", "KS", "QX", "QS") if c not in prompts[first][1])
    typed = ["?", "x", *lines[:first], "?", "7z", "", unheld, *lines[first:]]
    result = CliRunner().invoke(cli, ARGS, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"== Game over. Totals: {_names(game.totals)}." in out
    assert "Five Crowns, 6 rounds: you are seat 1 of 3. Deal: --seed 5 --game 2." in out
    assert "'x' is not a draw: type s (stock) or p (pile), ? for help" in out
    assert "bad card '7z'" in out and "bad card ''" in out
    assert "is not in your hand" in out
    assert "s (or stock)  the top card of the stock" in out and "A meld is a book" in out
    rounds = [e for e in game.events if e["event"] == "deal"]
    assert out.count("== Round ") == len(rounds) == 6
    assert "Round 1 of 6: 3 cards, 3s wild; dealer seat 0 (greedy); turn 1" in out


def test_output_is_what_the_seat_saw() -> None:
    """Every turn is shown, other seats' stock draws face down; every hand at a round's
    end; no other hand at a deal."""
    prompts, game = scripted_game()
    out = CliRunner().invoke(cli, ARGS, input="\n".join(_lines(prompts)) + "\n").output
    names = {0: "seat 0 (greedy)", 1: "you", 2: "seat 2 (random)"}
    for e in game.events:
        if e["event"] == "turn":
            if e["seat"] == 1:
                source = "from the pile" if e["source"] == "discard" else "from the stock"
                verb = "take" if e["source"] == "discard" else "draw"
                line = f"  you {verb} {e['drawn']} {source}, discard {e['discard']}"
            elif e["source"] == "discard":
                line = f"  {names[e['seat']]} takes {e['drawn']} from the pile, discards "
                line += e["discard"]
            else:
                line = f"  {names[e['seat']]} draws from the stock, discards {e['discard']}"
            assert line in out
        elif e["event"] == "score":
            melds = "  ".join(" ".join(m) for m in e["melds"]) or "-"
            assert f"  {names[e['seat']]}: {e['penalty']} points (" in out
            assert f"melds {melds} |" in out
        elif e["event"] == "deal":
            for seat in (0, 2):
                assert " ".join(e["hands"][seat]) not in out


def test_each_discard_prompt_names_the_card_just_drawn() -> None:
    """A stock card is seen only on that line: it must be the card the draw brought (on a
    draw that goes out the game discards by itself, with no prompt)."""
    prompts, game = scripted_game()
    out = CliRunner().invoke(cli, ARGS, input="\n".join(_lines(prompts)) + "\n").output
    drawn = [e["drawn"] for e in game.events
             if e["event"] == "turn" and e["seat"] == 1 and not e["out"]]
    assert len(drawn) == sum(phase == "discard" for phase, _, _ in prompts)
    assert re.findall(r"You drew (\S+)\. Your hand", out) == drawn


def test_discard_help_names_the_wild_rank_as_cards_are_written(monkeypatch, capsys) -> None:
    """In round 11 the help at a discard says the Ks are wild, not the 13s."""
    game = fcsim.Game(players=2, seed=5)
    greedy = fcsim.agent("greedy")
    while not (game.round == 11 and game.to_move == 0 and game.phase == "discard"):
        game.step(greedy(game.view()))
    typed = iter(["?", game.view().legal_actions[0]])
    monkeypatch.setattr(play, "ask", lambda prompt: next(typed))
    session = play.Session(game, 0, {1: greedy}, ["you", "seat 1 (greedy)"])
    session.hand_before_draw = game.view().hand_counts
    session.discard()
    assert "wilds (Ks and\njokers)" in capsys.readouterr().out


@pytest.mark.parametrize(("typed", "ending"), [
    ("q\n", "You quit. Score so far (rounds finished: 0): seat 0 (greedy) 0, you 0, "
            "seat 2 (random) 0."),
    ("stock\nQ\n", "You quit. Score so far (rounds finished: 1): seat 0 (greedy) 16, you 0, "
                   "seat 2 (random) 23."),  # went out on that draw
    ("s\n", "\nEnd of input. Score so far (rounds finished: 1)"),
    ("", "\nEnd of input. Score so far (rounds finished: 0)"),
])
def test_quit_and_end_of_input_exit_cleanly(typed, ending) -> None:
    result = CliRunner().invoke(cli, ARGS, input=typed)
    assert result.exit_code == 0, result.output
    assert ending in result.output and "Traceback" not in result.output


def test_ctrl_c_exits_130_with_the_score(monkeypatch) -> None:
    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    result = CliRunner().invoke(cli, ARGS)
    assert result.exit_code == 130
    assert "Interrupted. Score so far (rounds finished: 0)" in result.output


@pytest.mark.parametrize(("args", "fragment"), [
    (["--strategies", "gredy"], "known strategies"),
    (["--strategies", "oracle"], "sees hidden cards"),
    (["--seat", "4"], "--seat must be 0 to 3 at a table of 4"),
    (["--players", "9"], "--players must be 2 to 7, not 9"),
    (["--players", "4", "--strategies", "greedy,random"], "--players 4 but --strategies "
                                                          "lists 2 other seats"),
    (["--strategies", ",".join(["greedy"] * 7)], "--strategies lists 7 other seats: a table "
                                                 "holds 2 to 7 players, you included"),
])
def test_bad_options_are_one_line(args, fragment) -> None:
    result = CliRunner().invoke(cli, ["play", "--seed", "1", *args])
    assert result.exit_code == 2 and fragment in result.output
    assert "Traceback" not in result.output


def test_a_strategy_playing_illegally_is_named_as_simulate_names_it(tmp_path: Path) -> None:
    bad = tmp_path / "badmove.py"
    bad.write_text('def agent(view):\n    return "stock" if view.phase == "draw" else "ZZ"\n')
    result = CliRunner().invoke(cli, ["play", "--strategies", f"{bad}:agent", "--players",
                                      "2", "--seat", "0", "--seed", "1"], input="")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (
        f"Error: strategy '{bad}:agent' chose 'ZZ', which is not a legal discard (legal: 5D, "
        f"8C, JC, 10X)")


def _fcsim(*args: str, **kwargs) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(Path(fcsim.__file__).resolve().parent.parent))
    return subprocess.Popen([sys.executable, "-m", "fcsim", *args], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=default_sigint, **kwargs)


def test_a_real_process_plays_from_a_pipe_and_stops_on_ctrl_c() -> None:
    prompts, game = scripted_game()
    whole = _fcsim(*ARGS)
    out, err = whole.communicate("\n".join(_lines(prompts)) + "\n", timeout=600)
    assert whole.returncode == 0, err
    assert f"== Game over. Totals: {_names(game.totals)}." in out
    waiting = _fcsim(*ARGS)
    seen = ""
    deadline = time.monotonic() + 300
    while "Draw:" not in seen and time.monotonic() < deadline:
        seen += waiting.stdout.read(1)
    waiting.send_signal(signal.SIGINT)
    rest, _ = waiting.communicate(timeout=60)
    assert waiting.returncode == 130
    assert "Interrupted. Score so far" in rest
