"""Naive references for the assistant, written from the definitions (Python loops, no
code shared with the package): hard-mode legality, the score curve F, E of a guess, and
a brute-force optimal decision tree in normal and hard mode."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import cache

from tests.support.naive import feedback

MAX_GUESSES = 6


def colours_of(pattern_id: int, length: int) -> str:
    letters = ""
    for _ in range(length):
        pattern_id, colour = divmod(pattern_id, 3)
        letters += "BYG"[colour]
    return letters


def legal(word: str, turns: Sequence[tuple[str, str]]) -> bool:
    """NYT hard mode as written: after each (guess, colours), greens stay in place and
    every revealed letter appears at least as often as that reply revealed it."""
    for guess, colours in turns:
        for position, (letter, colour) in enumerate(zip(guess, colours, strict=True)):
            if colour == "G" and word[position] != letter:
                return False
        revealed = Counter(letter for letter, c in zip(guess, colours, strict=True) if c != "B")
        if any(word.count(letter) < times for letter, times in revealed.items()):
            return False
    return True


def curve(points: Sequence[tuple[float, float]], bits: float) -> float:
    """F through (0, 1) and the given (centre, guesses) points, linear, extended along the
    last segment."""
    xs = [0.0] + [x for x, _ in sorted(points) if x > 0]
    ys = [1.0] + [y for x, y in sorted(points) if x > 0]
    bits = max(bits, 0.0)
    for i in range(1, len(xs)):
        if bits <= xs[i]:
            t = (bits - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + t * (ys[i] - ys[i - 1])
    if len(xs) == 1:
        return ys[0]
    slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
    return ys[-1] + slope * (bits - xs[-1])


def expected_guesses(
    guess: str,
    candidates: Sequence[str],
    weights: Sequence[float] | None,
    points: Sequence[tuple[float, float]],
) -> tuple[float, float, float]:
    """(bits, E, P(win now)) of one guess, from the definition: E = P(answer) * 1 + sum
    over the other replies b of P(b) * (1 + F(bits left in b))."""
    weights = [1.0] * len(candidates) if weights is None else list(weights)
    total = math.fsum(weights)
    buckets: dict[int, list[float]] = {}
    for word, weight in zip(candidates, weights, strict=True):
        buckets.setdefault(feedback(guess, word), []).append(weight / total)
    green = 3 ** len(guess) - 1
    bits = expected = p_win = 0.0
    for reply, members in buckets.items():
        mass = math.fsum(members)
        bits -= mass * math.log2(mass)
        if reply == green:
            expected += mass
            p_win = mass
            continue
        left = -math.fsum(m / mass * math.log2(m / mass) for m in members)
        expected += mass * (1 + curve(points, left))
    return bits, expected, p_win


def optimal_tree(
    words: Sequence[str], answers: Sequence[str], opener: str, hard: bool
) -> tuple[int, list[dict]]:
    """(total guesses, nodes) of a tree of least total guesses over `answers` that opens
    with `opener`, by exhaustive search; ties go to a possible answer, then word order.
    Nodes: dicts with node_id, parent_id, pattern_id, guess, n_answers, depth,
    guesses_to_finish, in depth-first order."""
    words = sorted(words)

    green = 3 ** len(opener) - 1

    def split(guess: str, pool: frozenset) -> dict[int, list[str]]:
        buckets: dict[int, list[str]] = {}
        for answer in sorted(pool):
            buckets.setdefault(feedback(guess, answer), []).append(answer)
        return buckets

    @cache
    def best(pool: frozenset, turns: tuple, depth: int) -> tuple[float, str | None]:
        """Least total guesses over `pool` from here, and the guess achieving it. Branch
        and bound: a reply of k answers needs at least 2k - 1 more guesses."""
        if depth > MAX_GUESSES:
            return math.inf, None
        result: tuple[float, bool, str | None] = (math.inf, True, None)
        for guess in words:
            if hard and not legal(guess, turns):
                continue
            buckets = split(guess, pool)
            if len(buckets) == 1 and guess not in pool:
                continue  # learns nothing
            bound = len(pool) + sum(2 * len(b) - 1 for r, b in buckets.items() if r != green)
            if (bound, guess not in pool) >= result[:2]:
                continue
            total = float(len(pool))
            for reply, members in buckets.items():
                if reply != green:
                    after = (*turns, (guess, colours_of(reply, len(guess)))) if hard else ()
                    total += best(frozenset(members), after, depth + 1)[0]
            result = min(result, (total, guess not in pool, guess))
        return result[0], result[2]

    nodes: list[dict] = []

    def emit(guess: str, pool: frozenset, turns: tuple, depth: int, parent, reply) -> int:
        node_id = len(nodes)
        nodes.append({"node_id": node_id, "parent_id": parent, "pattern_id": reply,
                      "guess": guess, "n_answers": len(pool), "depth": depth,
                      "solves": guess in pool})  # fmt: skip
        total = len(pool)
        buckets = split(guess, pool)
        for child_reply in sorted(buckets):
            if child_reply == green:
                continue
            child_turns = (*turns, (guess, colours_of(child_reply, len(guess)))) if hard else ()
            child_pool = frozenset(buckets[child_reply])
            _, child_guess = best(child_pool, child_turns, depth + 1)
            child = emit(child_guess, child_pool, child_turns, depth + 1, node_id, child_reply)
            total += nodes[child]["guesses_to_finish"]
        nodes[node_id]["guesses_to_finish"] = total
        return node_id

    emit(opener, frozenset(answers), (), 1, None, None)
    return nodes[0]["guesses_to_finish"], nodes


def state_value(
    words: Sequence[str], pool: Sequence[str], turns: Sequence[tuple[str, str]], hard: bool,
    guess: str | None = None,
) -> float:  # fmt: skip
    """Least total guesses over `pool` (equally likely) after `turns`, this turn's guess
    included (`guess` if given, else the best), each answer within six guesses; inf when
    none fits. Exhaustive from the definition (the guesses hard mode allows after the
    turns, branch and bound on n + sum over replies of 2c - 1)."""
    allowed = frozenset(w for w in words if not hard or legal(w, turns))
    return _state_value(frozenset(pool), allowed, len(turns) + 1, hard, guess)


def _replies(guess: str, pool: frozenset) -> dict[int, list[str]]:
    buckets: dict[int, list[str]] = {}
    for answer in sorted(pool):
        buckets.setdefault(feedback(guess, answer), []).append(answer)
    return buckets


@cache
def _state_value(pool: frozenset, allowed: frozenset, depth: int, hard: bool, guess):
    if depth > MAX_GUESSES:
        return math.inf
    if guess is None:
        best = math.inf
        for g in sorted(allowed):
            green = 3 ** len(g) - 1
            bound = len(pool) + sum(
                2 * len(b) - 1 for r, b in _replies(g, pool).items() if r != green
            )
            if bound < best:
                best = min(best, _state_value(pool, allowed, depth, hard, g))
        return best
    green = 3 ** len(guess) - 1
    total = float(len(pool))
    for reply, members in _replies(guess, pool).items():
        if reply == green:
            continue
        after = allowed
        if hard:
            turn = [(guess, colours_of(reply, len(guess)))]
            after = frozenset(w for w in allowed if legal(w, turn))
        total += _state_value(frozenset(members), after, depth + 1, hard, None)
        if total == math.inf:
            break
    return total
