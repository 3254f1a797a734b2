"""One game, turn by turn: the engine's trace as JSON-ready events and as readable text.

Event shapes (cards in RULES.md notation) are documented in docs/ENGINE.md and docs/PLAY.md:
``deal``, ``turn``, ``reshuffle``, ``capped``, ``score``, ``end``.
"""

from __future__ import annotations

from collections.abc import Sequence

from fcsim.core.cards import rank_name
from fcsim.core.engine import trace_game
from fcsim.core.events import decode_events
from fcsim.core.rules import RuleSet


def game_events(seed: int, strategies: Sequence[object], rules: RuleSet,
                only_round: int | None = None) -> list[dict]:
    """The events of the game with game seed ``seed``, ``strategies[seat]`` in each seat.

    ``only_round`` keeps the events of that round (and the game's end).
    """
    if len(strategies) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} strategies, "
                         f"not {len(strategies)}")
    if only_round is not None:
        rules.check_round(only_round)
    _, trace = trace_game(seed, strategies, rules)
    events = decode_events(trace, rules)
    if only_round is not None:
        events = [e for e in events if e.get("round") in (only_round, None)]
    return events


def render_text(events: Sequence[dict], strategies: Sequence[object]) -> str:
    """The events as lines a person can follow and check."""
    names = [getattr(s, "spec", str(s)) for s in strategies]
    lines: list[str] = []
    for e in events:
        kind = e["event"]
        if kind == "deal":
            lines.append("")
            lines.append(f"== Round {e['round']}: {e['round'] + 2} cards, "
                         f"{rank_name(e['wild_rank'])}s wild; dealer seat {e['dealer']}; "
                         f"upcard {e['upcard']}")
            for seat, hand in enumerate(e["hands"]):
                lines.append(f"   seat {seat} ({names[seat]}): {' '.join(hand)}")
        elif kind == "turn":
            tag = " [last turn]" if e["last_turn"] else ""
            out = ("" if not e["out"] else "  -> melds every card" if e["last_turn"]
                   else "  -> goes out")
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
