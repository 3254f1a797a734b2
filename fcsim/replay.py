"""One game, turn by turn: the engine's trace as JSON-ready events and as readable text.

Event shapes (cards in RULES.md notation) are documented in docs/ENGINE.md and the README:
``deal``, ``turn``, ``reshuffle``, ``capped``, ``score``, ``end``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from fcsim.core import engine as E
from fcsim.core.arrangement import solve
from fcsim.core.cards import format_card, format_cards
from fcsim.core.rules import RuleSet
from fcsim.strategies.registry import Strategy


def _cards(row: np.ndarray, start: int, n: int) -> list[str]:
    return format_cards(int(k) for k in row[start : start + n])


def game_events(seed: int, strategies: Sequence[Strategy], rules: RuleSet,
                only_round: int | None = None) -> list[dict]:
    """The events of the game with game seed ``seed``, ``strategies[seat]`` in each seat.

    ``only_round`` keeps the events of that round (and the game's end).
    """
    if len(strategies) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} strategies, "
                         f"not {len(strategies)}")
    _, trace = E.trace_game(seed, strategies, rules)
    events = list(_events(trace, rules))
    if only_round is not None:
        rules.check_round(only_round)
        events = [e for e in events if e.get("round") in (only_round, None)]
    return events


def _events(trace: np.ndarray, rules: RuleSet) -> Iterator[dict]:
    players = rules.players
    totals = [0] * players
    deal: dict | None = None
    for row in trace:
        code, r = int(row[0]), int(row[1])
        if code == E.EV_DEAL:
            deal = {"event": "deal", "round": r, "dealer": int(row[2]), "wild_rank": r + 2,
                    "hands": [], "upcard": format_card(int(row[3]))}
        elif code == E.EV_HAND:
            assert deal is not None
            deal["hands"].append(_cards(row, E._HAND_COL, int(row[3])))
            if len(deal["hands"]) == players:
                yield deal
        elif code == E.EV_TURN:
            yield {"event": "turn", "round": r, "seat": int(row[2]),
                   "source": "discard" if row[3] else "stock",
                   "drawn": format_card(int(row[4])), "discard": format_card(int(row[5])),
                   "out": bool(row[6]), "last_turn": bool(row[7])}
        elif code == E.EV_RESHUFFLE:
            yield {"event": "reshuffle", "round": r, "stock_size": int(row[2])}
        elif code == E.EV_CAPPED:
            yield {"event": "capped", "round": r}
        elif code == E.EV_SCORE:
            hand = _cards(row, E._SCORE_COL, int(row[7]))
            went_out = bool(row[6])
            totals[int(row[2])] += int(row[3])
            shown = solve(hand, r, rules).to_json()  # the going-out hand melds everything
            yield {"event": "score", "round": r, "seat": int(row[2]), "hand": hand,
                   "melds": shown["melds"], "deadwood": shown["deadwood"],
                   "penalty": int(row[3]), "wild_pts": int(row[4]), "joker_pts": int(row[5]),
                   "went_out": went_out, "total": totals[int(row[2])]}
        elif code == E.EV_END:
            totals = [int(x) for x in row[1 : 1 + players]]
            low = min(totals)
            yield {"event": "end", "totals": totals,
                   "winners": [s for s, t in enumerate(totals) if t == low],
                   "places": [1 + sum(o < t for o in totals) for t in totals]}


def render_text(events: Sequence[dict], strategies: Sequence[Strategy]) -> str:
    """The events as lines a person can follow and check."""
    names = [s.spec for s in strategies]
    lines: list[str] = []
    for e in events:
        kind = e["event"]
        if kind == "deal":
            lines.append("")
            lines.append(f"== Round {e['round']}: {e['round'] + 2} cards, "
                         f"{_rank(e['wild_rank'])}s wild; dealer seat {e['dealer']}; "
                         f"upcard {e['upcard']}")
            for seat, hand in enumerate(e["hands"]):
                lines.append(f"   seat {seat} ({names[seat]}): {' '.join(hand)}")
        elif kind == "turn":
            tag = " [last turn]" if e["last_turn"] else ""
            out = "  -> goes out" if e["out"] else ""
            lines.append(f"   seat {e['seat']} draws {e['drawn']} from the {e['source']}, "
                         f"discards {e['discard']}{out}{tag}")
        elif kind == "reshuffle":
            lines.append(f"   (stock empty: discard pile reshuffled into {e['stock_size']} cards)")
        elif kind == "capped":
            lines.append(f"   (turn cap reached: round {e['round']} stopped, flagged capped)")
        elif kind == "score":
            melds = "  ".join(" ".join(m) for m in e["melds"]) or "-"
            left = " ".join(e["deadwood"]) or "-"
            detail = f"melds {melds} | left {left}"
            if e["went_out"]:
                detail = f"went out: {detail}"
            lines.append(f"   seat {e['seat']}: {e['penalty']:>4} points ({detail}); "
                         f"total {e['total']}")
        elif kind == "end":
            lines.append("")
            winners = ", ".join(f"seat {s} ({names[s]})" for s in e["winners"])
            lines.append(f"== End: totals {e['totals']}; winner: {winners}")
    return "\n".join(lines).lstrip("\n")


def _rank(rank: int) -> str:
    return {11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
