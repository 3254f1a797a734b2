"""Twin of ``search``: every candidate played out, world by world, on the reference engine.

The policy of :mod:`fcsim.strategies.search.player`, step by step in plain Python:

1. The anchor's own move; the candidates — stock and pile when the pile's card lowers the
   penalty now (else the stock alone), on a last turn the exact best discard alone, else
   the anchor's discard and the ``candidates`` discards that leave the least penalty now.
2. One number from the seat's own stream seeds the worlds; world ``w`` has its own
   generator, seeded ``seed + w``. A world shuffles the unseen cards (a list kept from
   world to world, fresh for each batch of worlds) and gives each other seat, in seat
   order, its known cards and as many of them as its hand lacks (of ``1 + skill x turns
   played`` draws, the one that leaves the least penalty); the stock is the rest. With
   ``evidence`` > 0, a seat that passed up or discarded cards this round gets one of 8
   such draws, each weighted ``(1 - evidence)`` per passed-up or discarded card it would
   have wanted (one more of it, less its best discard, leaves less penalty than now), picked
   with odds proportional to the weights by one uniform draw (all weights zero: uniformly).
   The oracle's worlds (``perfect``) are the real state instead (:func:`real_world`).
3. Each candidate, in a copy of the world and of its generator: the deciding seat's move,
   then every seat plays the ``rollout`` twin on the reference engine's own turns to the
   end of the round; the round is scored as a game scores it (:mod:`.rollout outcomes
   <fcsim.strategies.search.rollout>`).
4. The first quarter of the worlds (8 at least); the rest only if no candidate is ahead
   of every other by 3 paired standard errors; then the least mean ``objective``, kept
   over the anchor's move only if it gains more than nothing and at least ``confidence``
   standard errors.

The fast code compares float means; the twin's are exact fractions, and standard errors
are compared squared. With integer objectives, or two and three seats, the floats are
exact too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from fcsim import RuleSet
from fcsim.core.cards import COPIES, JOKER, N_JOKERS, full_deck, wild_rank
from fcsim.strategies.registry import NESTED_SEPARATOR

from .. import engine  # a module: the engine imports this package's twins
from ..rng import MASK64, Xoshiro256
from .expected import candidates as least_penalty_discards
from .greedy import solver_best_discard
from .view import View, exact, penalty, penalty_after_best_discard, unseen_cards

FIRST_SHARE, MIN_FIRST = 4, 8  # the first look: worlds / 4, at least 8 …
SETTLED_SE = 3  # … stops if the leader is ahead of every other by 3 standard errors
MAX_TRIES = 32
EVIDENCE_TRIES = 8  # draws a hand is resampled from by the seat's history
OBJECTIVES = ("penalty", "table", "standing")


def policy(spec: str) -> engine.Strategy:
    """A policy parameter (its own parameters separated by ``;``) as a twin strategy."""
    return engine.make_strategy(spec.replace(NESTED_SEPARATOR, ","))


def anchor_move(view: View, anchor: engine.Strategy, rng: Xoshiro256) -> int:
    drawing = len(view.hand) == wild_rank(view.round)
    decide = anchor.twin.draw if drawing else anchor.twin.discard
    return decide(view, anchor.params, rng)


def candidate_actions(view: View, how_many: int, anchor: int) -> list[int]:
    """The actions worth a search, the anchor's first."""
    if len(view.hand) == wild_rank(view.round):
        keep = penalty(view.hand, view)
        if penalty_after_best_discard([*view.hand, view.pile[-1]], view) >= keep:
            return [anchor]
        return [anchor, engine.DISCARD if anchor == engine.STOCK else engine.STOCK]
    if view.last_turn:
        return [solver_best_discard(view)]
    return [anchor] + [k for k in least_penalty_discards(view, how_many) if k != anchor]


def turns_played(view: View, seat: int) -> int:
    """Turns ``seat`` has played this round (play starts left of the dealer)."""
    turns, first = 0, (view.dealer + 1) % view.players
    for t in range(view.turn):
        turns += (first + t) % view.players == seat
    return turns


def deck_copies(kind: int) -> int:
    return N_JOKERS if kind == JOKER else COPIES


def evidence_weight(hand: list[int], view: View, seat: int, evidence: float) -> float:
    """``(1 - evidence) ** m``: ``m`` counts the cards ``seat`` passed up or discarded
    (copy by copy) that ``hand`` would have wanted — with one more of it, less the best
    discard, it leaves less penalty than now. A card ``hand`` holds every copy of is not
    wanted (it cannot be added). A product, as the fast code computes it."""
    now = penalty(hand, view)
    history = view.passed[seat] + view.discarded[seat]
    wanted = sum(copies for card, copies in history.items()
                 if hand.count(card) < deck_copies(card)
                 and penalty_after_best_discard([*hand, card], view) < now)
    weight = 1.0
    for _ in range(wanted):
        weight *= 1.0 - evidence
    return weight


def weighted_choice(weights: list[float], gen: Xoshiro256) -> int:
    """An index with odds proportional to its weight, from one uniform draw (the first
    whose running total exceeds ``u * total``); all zero: ``int(u * len)``."""
    total = 0.0
    for w in weights:
        total += w
    u = gen.uniform()
    if total <= 0.0:
        return int(u * len(weights))
    target, reached = u * total, 0.0
    for t, w in enumerate(weights):
        reached += w
        if target < reached:
            return t
    return len(weights) - 1


def fresh_draw(unseen: list[int], at: int, need: int, gen: Xoshiro256) -> None:
    """A partial shuffle of ``unseen[at:]``: a new draw in ``unseen[at : at + need]``."""
    for i in range(need):
        j = at + i + gen.randbelow(len(unseen) - at - i)
        unseen[at + i], unseen[j] = unseen[j], unseen[at + i]


def least_penalty_draw(view: View, known: list[int], unseen: list[int], at: int, need: int,
                       tries: int, gen: Xoshiro256) -> list[int]:
    """Of ``tries`` draws (the first as ``unseen`` lies, the others fresh), the first that
    leaves ``known`` plus it the least penalty."""
    best = None
    for t in range(tries):
        if t > 0:
            fresh_draw(unseen, at, need, gen)
        drawn = unseen[at : at + need]
        score = penalty([*known, *drawn], view) if tries > 1 else 0
        if best is None or score < best[0]:
            best = (score, list(drawn))
    return best[1]


def deal_world(view: View, unseen: list[int], gen: Xoshiro256, skill: Fraction,
               evidence: float) -> tuple[list[list[int]], list[int]]:
    """Every hand and the stock (top last) of one world; ``unseen`` is reordered."""
    gen.shuffle(unseen)
    n = wild_rank(view.round)
    hands, at = [], 0
    for seat in range(view.players):
        if seat == view.seat:
            hands.append(list(view.hand))
            continue
        known = list(view.known[seat].elements())
        need = n - len(known)
        tries = min(MAX_TRIES, 1 + int(skill * turns_played(view, seat)))
        history = view.passed[seat] + view.discarded[seat]
        if evidence > 0 and need > 0 and history:
            draws, weights = [], []
            for t in range(EVIDENCE_TRIES):
                if t > 0:
                    fresh_draw(unseen, at, need, gen)
                draws.append(least_penalty_draw(view, known, unseen, at, need, tries, gen))
                weights.append(evidence_weight([*known, *draws[-1]], view, seat, evidence))
            drawn = draws[weighted_choice(weights, gen)]
        else:
            drawn = least_penalty_draw(view, known, unseen, at, need, tries, gen)
        for i, card in enumerate(drawn):  # the draw to the front, card by card
            j = unseen.index(card, at + i)
            unseen[at + i], unseen[j] = unseen[j], unseen[at + i]
        hands.append([*known, *drawn])
        at += need
    return hands, unseen[at : at + view.stock_size]


def real_world(view: View, gen: Xoshiro256) -> tuple[list[list[int]], list[int]]:
    """Every hand and the stock (top last) as they really are, from an oracle's view.

    The oracle's stock was shown as the turn began (top first), so after a stock draw its
    first card is the one drawn: the stock is its last ``stock_size`` cards. If fewer
    were shown, the draw rebuilt the stock from the pile and its order was never shown:
    it is as in :func:`real_hands_world`.
    """
    shown = list(view.stock)
    if len(shown) >= view.stock_size:
        return _real_hands(view), shown[len(shown) - view.stock_size:][::-1]
    return real_hands_world(view, gen)


def _real_hands(view: View) -> list[list[int]]:
    return [list(view.hand) if s == view.seat else list(view.hands[s])
            for s in range(view.players)]


def real_hands_world(view: View, gen: Xoshiro256) -> tuple[list[list[int]], list[int]]:
    """Every hand as it really is (an oracle's view), and a stock of every card in no hand
    and not on the pile, in kind order, shuffled by ``gen``."""
    hands = _real_hands(view)
    left = Counter(int(k) for k in full_deck())
    for cards in (*hands, view.pile):
        left.subtract(cards)
    stock = sorted(left.elements())
    gen.shuffle(stock)
    return hands, stock


def read_hands_world(view: View, gen: Xoshiro256, reveal: float
                     ) -> tuple[list[list[int]], list[int]]:
    """:func:`real_hands_world` when ``reveal`` is 1. Below it, each opponent card its seat
    has not shown is kept as it is if a uniform draw (seat by seat, in kind order) falls
    below ``reveal``; the cards in no hand and not on the pile, in kind order, shuffled
    by ``gen``, refill the hands in seat order, and the rest is the stock."""
    if reveal >= 1:
        return real_hands_world(view, gen)
    hands = []
    for seat in range(view.players):
        if seat == view.seat:
            hands.append(list(view.hand))
            continue
        kept = list(view.known[seat].elements())
        not_shown = Counter(view.hands[seat]) - view.known[seat]
        kept += [k for k in sorted(not_shown.elements()) if gen.uniform() < reveal]
        hands.append(kept)
    left = Counter(int(k) for k in full_deck())
    for cards in (*hands, view.pile):
        left.subtract(cards)
    pool = sorted(left.elements())
    gen.shuffle(pool)
    at = 0
    for seat in range(view.players):
        need = len(view.hands[seat]) - len(hands[seat])
        hands[seat] += pool[at : at + need]
        at += need
    return hands, pool[at:]


@dataclass(frozen=True)
class Forced:
    """The deciding seat's own turn: its move, the rollout policy for the rest of it."""

    source: int | None
    discard: int | None
    then: engine.Strategy
    spec: str = "search"

    def choose_source(self, table: engine.Table, seat: int, rules: RuleSet,
                      streams: engine.Streams) -> int:
        return self.source

    def choose_discard(self, table: engine.Table, seat: int, rules: RuleSet,
                       streams: engine.Streams, turn_start: object) -> int:
        if self.discard is None:
            return self.then.choose_discard(table, seat, rules, streams, turn_start)
        return self.discard


def outcomes(view: View, table: engine.Table, rules: RuleSet) -> dict[str, Fraction]:
    """The deciding seat's outcomes of the round played out on ``table``."""
    scores = [view.go_out_bonus if s == table.out_seat
              else engine.score_split(hand, view.round, rules)[0]
              for s, hand in enumerate(table.hands)]
    own, others = scores[view.seat], [x for s, x in enumerate(scores) if s != view.seat]
    totals = [t + x for t, x in zip(view.totals, scores, strict=True)]
    best_other = min(t for s, t in enumerate(totals) if s != view.seat)
    return {"penalty": Fraction(own), "table": own - Fraction(sum(others), len(others)),
            "standing": Fraction(totals[view.seat] - best_other)}


def roll_out(view: View, hands: list[list[int]], stock: list[int], gen: Xoshiro256,
             action: int, rollout: engine.Strategy, rules: RuleSet) -> dict[str, Fraction]:
    """``action``, then the round to its end with every seat playing ``rollout``."""
    table = engine.Table(round=view.round, dealer=view.dealer, hands=[list(h) for h in hands],
                  stock=list(stock), pile=list(view.pile),
                  known=[Counter(k) for k in view.known], turn=view.turn, seat=view.seat,
                  out_seat=view.out_seat)
    play = Xoshiro256.from_state(gen.state)  # the world's reshuffles, then its seats' streams
    seeder = Xoshiro256.from_state(gen.state)
    streams = engine.Streams(play, [Xoshiro256(seeder.next_u64()) for _ in range(view.players)])
    drawing = len(view.hand) == wild_rank(view.round)
    seats: list[engine.Strategy] = [rollout] * view.players
    forced = Forced(action if drawing else None, None if drawing else action, rollout)
    if drawing:
        went_out = engine.play_turn(table, view.seat, forced, rules, streams, None)
    else:
        went_out = engine.finish_turn(table, view.seat, forced, rules, streams,
                                      engine.hidden_now(table), None, None)
    seat, _ = engine.next_seat(table, view.seat, went_out, rules)
    engine.play_on(table, seat, seats, rules, streams)
    return outcomes(view, table, rules)


def mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def ahead_by(diff: list[Fraction], margin: Fraction) -> bool:
    """Whether the mean of ``diff`` exceeds ``margin`` standard errors (std / sqrt(W-1),
    W the worlds; compared squared)."""
    m = mean(diff)
    if m <= 0:
        return False
    variance = mean([(d - m) ** 2 for d in diff])
    return m * m > margin * margin * variance / max(1, len(diff) - 1)


def settled(values: list[list[Fraction]]) -> bool:
    """The best-looking action is ahead of every other by SETTLED_SE standard errors."""
    best = min(range(len(values)), key=lambda a: (mean(values[a]), a))
    return all(ahead_by([x - y for x, y in zip(values[a], values[best], strict=True)],
                        Fraction(SETTLED_SE))
               for a in range(len(values)) if a != best)


def futile(values: list[list[Fraction]], margin: Fraction, gate: Fraction) -> bool:
    """No candidate (rows 1…) beats the anchor (row 0) by more than ``margin`` standard
    errors, where the gate asks more; never when ``margin`` is 0."""
    return 0 < margin < gate and not any(
        ahead_by([y - x for x, y in zip(values[a], values[0], strict=True)], margin)
        for a in range(1, len(values)))


def choose(values: list[list[Fraction]], confidence: Fraction) -> int:
    """The least mean row if it gains on row 0 (the anchor) by more than nothing and by
    at least ``confidence`` standard errors; else 0."""
    best = min(range(len(values)), key=lambda a: (mean(values[a]), a))
    if best == 0:
        return 0
    gain = [y - x for x, y in zip(values[best], values[0], strict=True)]
    m = mean(gain)
    if m <= 0:
        return 0
    if confidence > 0:
        variance = mean([(g - m) ** 2 for g in gain])
        if m * m < confidence * confidence * variance / max(1, len(gain) - 1):
            return 0
    return best


def decide(view: View, params: Mapping[str, float], rng: Xoshiro256, *,
           oracle_world=None) -> int:
    """The search's draw source or discard; ``oracle_world``: None to deal worlds from the
    view, else a function ``(view, gen) -> (hands, stock)`` reading an oracle's view
    (:func:`real_world`, :func:`real_hands_world`)."""
    rollout, anchor = policy(params["rollout"]), policy(params["anchor"])
    first_move = anchor_move(view, anchor, rng)
    actions = candidate_actions(view, int(params["candidates"]), first_move)
    if len(actions) == 1:
        return actions[0]
    n = wild_rank(view.round)
    missing = view.stock_size + sum(n - sum(view.known[s].values())
                                    for s in range(view.players) if s != view.seat)
    if oracle_world is None and missing != len(unseen_cards(view)):
        return first_move  # a view that does not add up: no worlds to deal
    rules = RuleSet(players=view.players, wild_penalty=view.wild_points,
                    all_wild_melds=view.all_wild, go_out_bonus=view.go_out_bonus,
                    turn_cap=view.turn_cap)
    worlds, skill = int(params["worlds"]), exact(params["skill"])
    evidence = float(params["evidence"])  # weights are floats, computed as the fast code does
    objective = OBJECTIVES[int(params["objective"])]
    seed = rng.next_u64()
    values: list[list[Fraction]] = [[] for _ in actions]

    def evaluate(worlds_from: int, worlds_to: int) -> None:
        unseen = unseen_cards(view)  # in kind order at each batch
        for w in range(worlds_from, worlds_to):
            gen = Xoshiro256((seed + w) & MASK64)
            hands, stock = (deal_world(view, unseen, gen, skill, evidence)
                            if oracle_world is None
                            else oracle_world(view, gen))
            for a, action in enumerate(actions):
                values[a].append(roll_out(view, hands, stock, gen, action, rollout,
                                          rules)[objective])

    first = min(worlds, max(MIN_FIRST, worlds // FIRST_SHARE))
    evaluate(0, first)
    if (first < worlds and not settled(values)
            and not futile(values, exact(params["futility"]), exact(params["confidence"]))):
        evaluate(first, worlds)
    return actions[choose(values, exact(params["confidence"]))]


draw = discard = decide
