"""``fcsim solve`` end to end: human and JSON output, --best-discard, --file, errors, variants."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner, Result

from fcsim.cli import cli
from fcsim.core.cards import format_cards, full_deck, parse_cards
from tests.reference.solver import arrangement_problems, reference_penalty


def run(*args: str, stdin: str | None = None) -> Result:
    """Invoke ``fcsim solve`` in process."""
    return CliRunner().invoke(cli, ["solve", *args], input=stdin)


def solved(*args: str) -> dict:
    """The JSON object ``fcsim solve --json`` prints."""
    result = run("--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_human_output() -> None:
    """A header with the round, its wild rank and the penalty; one line per meld; left over."""
    result = run("--round", "5", "9H", "JS", "7D", "JK", "3H", "4H", "7S")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["round", "5", "(7s", "wild)", "penalty", "9"]
    melds = [line.split()[1:] for line in lines if line.split()[0] == "meld"]
    assert len(melds) == 2
    assert lines[-1].split() == ["left", "over", "9H"]
    kinds = parse_cards("9H JS 7D JK 3H 4H 7S")
    meld_kinds = [parse_cards(m) for m in melds]
    assert arrangement_problems(kinds, meld_kinds, parse_cards("9H"), 9, 5) == []


@pytest.mark.parametrize(("round_number", "wild"), [(1, "3s"), (8, "10s"), (9, "Js"),
                                                   (10, "Qs"), (11, "Ks")])
def test_human_output_names_the_wild_rank(round_number: int, wild: str) -> None:
    """The header names the wild rank as cards are written: J, Q, K, not 11, 12, 13."""
    result = run("--round", str(round_number), "3H", "4H", "5H")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split()[2] == f"({wild}"


def test_human_output_nothing_left() -> None:
    """A hand that melds everything says so."""
    result = run("--round", "1", "3H", "4H", "5H")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].split() == ["left", "over", "-"]


def test_json_format() -> None:
    """--json prints exactly {"penalty", "melds", "deadwood"} in RULES.md notation."""
    data = solved("--round", "5", "9H", "JS", "7D", "JK")
    assert set(data) == {"penalty", "melds", "deadwood"}
    assert data["penalty"] == 9 and data["deadwood"] == ["9H"]
    assert [sorted(m) for m in data["melds"]] == [sorted(["JS", "7D", "JK"])]


def test_rules_example_hands() -> None:
    """RULES.md's counting example: 9 + J = 20, a wild 7 + a joker = 70, all melded = 0."""
    assert solved("--round", "5", "9H", "JS", "3D", "4D", "5D", "6D", "7D")["penalty"] == 20
    data = solved("--round", "5", "7S", "JK")
    assert (data["penalty"], data["melds"], sorted(data["deadwood"])) == (70, [], ["7S", "JK"])
    assert solved("--round", "5", "3H", "4H", "5H", "9S", "9D", "9C", "JK")["penalty"] == 0


def test_best_discard_adds_discard() -> None:
    """--best-discard: the hand is n+1 cards; the discard is made, then the rest solved."""
    data = solved(
        "--round", "5", "--best-discard", *["9H", "JS", "7D", "JK", "7S", "3H", "4H", "KD"]
    )
    assert set(data) == {"penalty", "melds", "deadwood", "discard"}
    assert (data["discard"], data["penalty"], data["deadwood"]) == ("KD", 9, ["9H"])
    assert sum(len(m) for m in data["melds"]) + len(data["deadwood"]) == 7


def test_notation_is_lenient_on_input() -> None:
    """Lower case, T, * and ★ are all accepted."""
    data = solved("--round", "1", "th", "jh", "q*", "k★", "QX", "4s", "3d")
    assert sorted(data["deadwood"]) == ["10H", "4S", "JH", "QX"]  # QX KX + 3D (the JX)
    assert data["penalty"] == 10 + 11 + 12 + 4


def test_commas_and_quoted_hands_in_arguments() -> None:
    """RULES.md: cards are separated by spaces or commas, on the command line too."""
    assert solved("--round", "5", "9H,JS,7D,JK")["penalty"] == 9
    assert solved("--round", "5", "9H JS", "7D JK")["penalty"] == 9


def test_file_from_stdin_in_order() -> None:
    """--file - solves one hand per line and writes one JSON line per hand, in order."""
    hands = ["9H JS 7D JK", "3H 4H 5H", "7S JK", "QX,qx jk"]
    result = run("--round", "5", "--file", "-", stdin="\n".join(hands) + "\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line)["penalty"] for line in lines] == [9, 0, 70, 0]
    assert [json.loads(line)["line"] for line in lines] == [1, 2, 3, 4]


def test_file_with_best_discard(tmp_path) -> None:
    """--file and --best-discard: every line gains a discard."""
    path = tmp_path / "hands.txt"
    path.write_text("9H JS 7D JK 7S 3H 4H KD\n3H 4H 5H 6H\n", encoding="utf-8")
    result = run("--round", "5", "--best-discard", "--file", str(path))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["discard"], r["penalty"]) for r in rows] == [("KD", 9), ("6H", 0)]


def test_file_bad_token_names_line_and_token() -> None:
    """A bad token: a one-line error naming the line number and the token; the other lines
    are still solved, and the exit status says that some failed."""
    result = run("--round", "5", "--file", "-", stdin="9H JS 7D JK\n3H ZZ 5H\n4H 5H 6H\n")
    assert result.exit_code == 2
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["penalty"]) for r in rows] == [(1, 9), (3, 0)]
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1
    assert "line 2" in errors[0] and "'ZZ'" in errors[0]


def test_file_skips_blank_lines() -> None:
    """A blank line is no empty hand: it is skipped, and line numbers stay the file's."""
    result = run("--round", "5", "--file", "-", stdin="\n9H JS 7D JK\n   \n\n3H 4H 5H\n")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["penalty"]) for r in rows] == [(2, 9), (5, 0)]


def test_no_cards_is_an_error() -> None:
    result = run("--round", "5")
    assert result.exit_code == 2 and "give the cards of a hand" in result.output


def test_file_three_copies_is_an_error() -> None:
    """A hand the deck cannot hold is an error of its line."""
    result = run("--round", "5", "--file", "-", stdin="3H 3H 3H\n")
    assert result.exit_code == 2
    assert "line 1" in result.stderr and "3H appears 3 times" in result.stderr


def test_bad_token_in_arguments() -> None:
    """A bad card on the command line is a usage error naming it."""
    result = run("--round", "5", "9H", "1X")
    assert result.exit_code == 2
    assert "'1X'" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--round", "0", "3H"],
        ["--round", "12", "3H"],
        ["3H"],
        ["--round", "1", "--wild-penalty", "0", "3H"],
        ["--round", "1", "--wild-penalty", "lots", "3H"],
        ["--round", "1", "--file", "-", "3H"],
    ],
)
def test_usage_errors(args: list[str]) -> None:
    """Bad rounds, bad wild penalties, cards and --file together: exit 2, no traceback."""
    result = run(*args, stdin="")
    assert result.exit_code == 2
    assert "Error" in result.output and "Traceback" not in result.output


def test_variant_flags_change_answers() -> None:
    """--no-all-wild-melds and --wild-penalty face change the penalty as RULES.md says."""
    hand = ["3S", "3H", "JK"]  # round 1: three wilds
    assert solved("--round", "1", *hand)["penalty"] == 0
    assert solved("--round", "1", "--no-all-wild-melds", *hand)["penalty"] == 90
    face = solved("--round", "1", "--no-all-wild-melds", "--wild-penalty", "face", *hand)
    assert face["penalty"] == 3 + 3 + 50
    assert solved("--round", "5", "--wild-penalty", "face", "7S", "JK")["penalty"] == 57
    assert solved("--round", "5", "--wild-penalty", "35", "7S", "JK")["penalty"] == 85


@pytest.mark.parametrize("flags", [[], ["--no-all-wild-melds"], ["--wild-penalty", "face"]])
def test_printed_arrangements_are_legal(flags: list[str]) -> None:
    """On dealt hands through --file: every meld legal, melds + deadwood = the hand,
    deadwood points = penalty, and the penalty is the reference's."""
    rng = np.random.default_rng(17)
    wild_penalty = "face" if "face" in flags else 20
    all_wild = "--no-all-wild-melds" not in flags
    for round_number in range(1, 12):
        hands = [
            rng.permutation(full_deck())[: round_number + 2 + i % 3].tolist() for i in range(15)
        ]
        stdin = "".join(" ".join(format_cards(kinds)) + "\n" for kinds in hands)
        result = run("--round", str(round_number), *flags, "--file", "-", stdin=stdin)
        assert result.exit_code == 0, result.output
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(rows) == len(hands)
        for kinds, row in zip(hands, rows, strict=True):
            melds = [parse_cards(m) for m in row["melds"]]
            problems = arrangement_problems(
                kinds,
                melds,
                parse_cards(row["deadwood"]),
                row["penalty"],
                round_number,
                wild_penalty,
                all_wild,
            )
            assert problems == [], (kinds, row)
            want, _ = reference_penalty(kinds, round_number, wild_penalty, all_wild)
            assert row["penalty"] == want, (kinds, row)


@pytest.mark.parametrize("flag", ["--short", "--go-out-bonus=-10", "--turn-cap=5"])
def test_rules_that_cannot_change_a_hand_are_not_offered(flag: str) -> None:
    result = run("--round", "5", flag, "9H", "JS", "7D", "JK", "7S", "3H", "4H")
    assert result.exit_code == 2 and "No such option" in result.output


def test_the_hand_rules_change_the_answer() -> None:
    hand = ("--round", "1", "--json", "3H", "3S", "3D")
    assert json.loads(run(*hand).output)["penalty"] == 0
    assert json.loads(run(*hand, "--no-all-wild-melds").output)["penalty"] == 60
    assert json.loads(run(*hand, "--no-all-wild-melds", "--wild-penalty", "face").output
                      )["penalty"] == 9


def test_a_file_that_is_not_text_is_one_line(tmp_path) -> None:
    path = tmp_path / "hands.txt"
    path.write_bytes(b"3H 4H 5H\n\xff\xfe\n")
    result = run("--round", "1", "--file", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {path} is not UTF-8 text (invalid start byte)\n"
