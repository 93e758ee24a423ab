"""Naive reference implementations shared by the tests, written from the definitions.

Deliberately slow and plain (Python loops, no shared code with the package), so that a
test comparing the package against them checks the package's algorithm, not a copy of it.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np


def feedback(guess: str, answer: str) -> int:
    """Wordle feedback by the rules as written: mark greens, then consume leftover letters.

    A different algorithm from both engines: an explicit list of the answer's unmatched
    letters, from which each yellow removes one copy. Position 0 is least significant,
    grey 0, yellow 1, green 2.
    """
    assert len(guess) == len(answer)
    colours = ["B"] * len(guess)
    leftover = []
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            colours[i] = "G"
        else:
            leftover.append(a)
    for i, g in enumerate(guess):
        if colours[i] == "B" and g in leftover:
            colours[i] = "Y"
            leftover.remove(g)
    return sum("BYG".index(c) * 3**i for i, c in enumerate(colours))


def feedback_matrix(guesses: Sequence[str], answers: Sequence[str]) -> np.ndarray:
    """(G, A) int64 matrix of `feedback`, rows guesses, columns answers."""
    return np.array([[feedback(g, a) for a in answers] for g in guesses], dtype=np.int64).reshape(
        len(guesses), len(answers)
    )


def entropy_bits(weights: Sequence[float]) -> float:
    """Shannon entropy (bits) of bucket weights or counts, normalised here."""
    total = math.fsum(weights)
    return -math.fsum(w / total * math.log2(w / total) for w in weights if w)


def buckets(row: Sequence[int], weights: Sequence[float] | None = None) -> dict[int, list]:
    """reply id -> [count, weight] of one pattern row (weights default to 1 each)."""
    result: dict[int, list] = {}
    for j, reply in enumerate(row):
        entry = result.setdefault(int(reply), [0, 0.0])
        entry[0] += 1
        entry[1] += 1.0 if weights is None else float(weights[j])
    return result


def partition_stats(row: Sequence[int], weights: Sequence[float] | None = None) -> dict:
    """Every statistic of one guess row, from the definitions.

    entropy: over the bucket weights (counts when unweighted); uniform: over the counts;
    buckets: how many distinct replies; largest: the biggest bucket; expected: the
    expected number of answers left, sum_b P(b) * c_b with P(b) the bucket's share.
    """
    parts = buckets(row, weights)
    counts = [count for count, _ in parts.values()]
    mass = [weight for _, weight in parts.values()]
    total = math.fsum(mass)
    return {
        "entropy": entropy_bits(mass),
        "uniform": entropy_bits(counts),
        "buckets": len(parts),
        "largest": max(counts),
        "expected": math.fsum(w / total * c for c, w in zip(counts, mass, strict=True)),
    }


def fixed_f(count: int, scale: float) -> int:
    """F(c) = round(c log2 c * scale), the fixed-point term of one bucket (F(0) = F(1) = 0)."""
    return round(count * math.log2(count) * scale) if count > 1 else 0


def fixed_s(row: Sequence[int], values: Sequence[int]) -> int:
    """S = sum over buckets of values[c_b]: the fixed-point score of one row."""
    return sum(int(values[c]) for c in Counter(int(r) for r in row).values())


def ranks_with_ties(
    scores: Sequence[float], *, higher_is_better: bool, tolerance: float = 1e-9, keys=()
) -> list[int]:
    """Positions in rank order by the tie rule written out: repeatedly take the best
    score left, tie everything within `tolerance` of it, order that group by the keys
    then position."""
    left = list(range(len(scores)))
    order: list[int] = []
    sign = -1 if higher_is_better else 1
    while left:
        best = min(sign * scores[i] for i in left)
        group = [i for i in left if sign * scores[i] <= best + tolerance]
        group.sort(key=lambda i: (*(key[i] for key in keys), i))
        order.extend(group)
        left = [i for i in left if i not in group]
    return order


# ============================================================================================
# Analysis references: Wordle's rules, entropies, the tie rule, second guesses and games
# (tests of pipeline.kernels.partition / opener_search, pipeline.analysis.openers.entropy_maps /
# openers / strategies / games, and the assistant).
# ============================================================================================

TIE = 1e-9  # the tie tolerance, as pipeline.core.ties documents it
COLOURS = "BYG"


def rules_colours(guess: str, answer: str) -> str:
    """The reply as B/Y/G letters, position 0 first."""
    pattern = feedback(guess, answer)
    return "".join(COLOURS[pattern // 3**i % 3] for i in range(len(guess)))


def reply_groups(guess: str, pool: Sequence[str]) -> dict[int, list[str]]:
    """The words of `pool` grouped by the reply `guess` gets from each (pool order kept)."""
    groups: dict[int, list[str]] = defaultdict(list)
    for word in pool:
        groups[feedback(guess, word)].append(word)
    return dict(groups)


def guess_entropy(guess: str, pool: Sequence[str], weight: dict[str, float] | None = None) -> float:
    """Entropy of the reply to `guess`, the answer drawn from `pool` (uniform or `weight`)."""
    return entropy_bits(
        [
            sum(1.0 if weight is None else weight[w] for w in group)
            for group in reply_groups(guess, pool).values()
        ]
    )


def tie_rule_ranks(scores: Sequence[float], *, higher_is_better: bool = True) -> list[int]:
    """1-based rank of each score by ranks_with_ties."""
    ranks = [0] * len(scores)
    for rank, position in enumerate(ranks_with_ties(scores, higher_is_better=higher_is_better), 1):
        ranks[position] = rank
    return ranks


def best_second_guess(
    words: Sequence[str], members: Sequence[str], weight: dict[str, float]
) -> tuple[str, float, dict[str, int]]:
    """The best second guess for a bucket by the rules: every word scored by its entropy
    over the bucket; the tie rule with "is in the bucket" first. Also counts which tie
    rule decided, so tests can insist both were exercised."""
    ties = {"candidate_beats_earlier_word": 0, "earlier_word_among_non_candidates": 0}
    if len(members) == 1:
        return members[0], 0.0, ties
    scores = [guess_entropy(w, members, weight) for w in words]
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s >= best - TIE]
    inside = [i for i in tied if words[i] in members]
    if inside and tied[0] != inside[0]:
        ties["candidate_beats_earlier_word"] += 1
    if not inside and len(tied) > 1:
        ties["earlier_word_among_non_candidates"] += 1
    pick = (inside or tied)[0]
    return words[pick], scores[pick], ties


def brute_force_openers(
    words: Sequence[str],
    candidates: Sequence[str],
    weight: dict[str, float],
    openers: Sequence[str],
) -> dict:
    """Buckets, best second guesses (any of `words`) and the two-step figures of each
    opener, straight from the rules; "_ties" counts the tie rules that decided."""
    total = sum(weight[c] for c in candidates)
    result: dict[str, dict] = {}
    ties: Counter[str] = Counter()
    for opener in openers:
        groups = reply_groups(opener, candidates)
        rows = {}
        h1 = h2 = left = solved = 0.0
        for pattern in sorted(groups):
            members = groups[pattern]
            mass = sum(weight[a] for a in members)
            second, score, decided = best_second_guess(words, members, weight)
            ties.update(decided)
            is_candidate = second in members
            after = reply_groups(second, members).values()
            left_b = sum(sum(weight[a] for a in g) / mass * len(g) for g in after)
            solve_b = weight[second] / mass if is_candidate else 0.0
            q = mass / total
            h1 -= q * math.log2(q)
            h2 += q * score
            left += q * (left_b - solve_b)
            solved += q * solve_b
            rows[pattern] = (len(members), q, second, score, is_candidate)
        result[opener] = {
            "rows": rows,
            "h1": h1,
            "h2": h2,
            "total": h1 + h2,
            "left": left,
            "solved": solved,
        }
    result["_ties"] = dict(ties)
    return result


def rank_by_total(openers: Sequence[str], reference: dict, words: Sequence[str]) -> list[str]:
    """Openers best first by two-step total, by the tie rule (then word order)."""
    order = ranks_with_ties(
        [reference[w]["total"] for w in openers],
        higher_is_better=True,
        keys=[[words.index(w) for w in openers]],
    )
    return [openers[i] for i in order]


def sorted_two_step(matrix: np.ndarray, answer_rows: np.ndarray, opener: int) -> tuple:
    """(two_step_total, best second guess per bucket) of one opener over stored
    guess x answer rows, by sorting in plain numpy: for each bucket, sort every guess's
    replies over it; S = sum over runs of L log2 L follows from each element's position
    within its run. Fast enough for the real lists, independent of the kernels."""
    row = matrix[opener]
    n = len(row)
    in_bucket = np.zeros(matrix.shape[0], dtype=bool)
    h1 = h2 = 0.0
    seconds = []
    for pattern in np.unique(row):
        members = np.flatnonzero(row == pattern)
        size = len(members)
        q = size / n
        h1 -= q * math.log2(q)
        if size == 1:
            seconds.append(int(answer_rows[members[0]]))
            continue
        ordered = np.sort(matrix[:, members], axis=1)
        position = np.broadcast_to(np.arange(size), ordered.shape)
        new_run = np.ones(ordered.shape, dtype=bool)
        new_run[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        run_start = np.maximum.accumulate(np.where(new_run, position, 0), axis=1)
        r = (position - run_start + 1).astype(np.float64)
        step = r * np.log2(r) - np.where(r > 1, (r - 1) * np.log2(np.maximum(r - 1, 1)), 0.0)
        scores = math.log2(size) - step.sum(axis=1) / size
        tied = scores >= scores.max() - TIE
        in_bucket[:] = False
        in_bucket[answer_rows[members]] = True
        pick = np.flatnonzero(tied & in_bucket)
        best = int(pick[0] if pick.size else np.flatnonzero(tied)[0])
        seconds.append(best)
        h2 += q * scores[best]
    return h1 + h2, seconds


def bincount_entropies(matrix: np.ndarray, columns: np.ndarray | None = None) -> np.ndarray:
    """Uniform entropy of every row over the given columns by np.bincount, in blocks."""
    sub = (matrix if columns is None else matrix[:, columns]).astype(np.int64)
    n_rows, n = sub.shape
    span = int(sub.max()) + 1
    scores = np.empty(n_rows)
    for start in range(0, n_rows, 2000):
        block = sub[start : start + 2000]
        index = block + span * np.arange(len(block))[:, None]
        counts = np.bincount(index.ravel(), minlength=len(block) * span).reshape(-1, span)
        p = counts / n
        scores[start : start + 2000] = -(p * np.log2(np.where(p > 0, p, 1))).sum(axis=1)
    return scores


def numpy_greedy(matrix: np.ndarray, answer_rows: np.ndarray, answers: np.ndarray) -> int:
    """The greedy-entropy guess over the answer columns `answers`: highest entropy;
    within TIE a possible answer first, then the lowest word_id."""
    scores = bincount_entropies(matrix, answers)
    tied = scores >= scores.max() - TIE
    preferred = np.zeros(matrix.shape[0], dtype=bool)
    preferred[answer_rows[answers]] = True
    return int(np.flatnonzero((tied & preferred) if (tied & preferred).any() else tied)[0])


# --- a reference player: one game at a time, pure Python --------------------------------


def consistent(pool: Sequence[str], history: Sequence[tuple[str, int]]) -> list[str]:
    """Words of `pool` that give every (guess, reply) of the history."""
    return [w for w in pool if all(feedback(g, w) == p for g, p in history)]


def hard_legal(word: str, history: Sequence[tuple[str, int]]) -> bool:
    """NYT hard mode spelled out letter by letter: after each (guess, reply), each green
    letter stays in its position, and each letter the reply showed green or yellow k
    times appears in the word at least k times; grey letters may be reused."""
    for guess, pattern in history:
        colours = []
        for _ in guess:
            pattern, colour = divmod(pattern, 3)
            colours.append(colour)
        shown: dict[str, int] = {}
        for position, letter in enumerate(guess):
            if colours[position] == 2 and word[position] != letter:
                return False
            if colours[position] > 0:
                shown[letter] = shown.get(letter, 0) + 1
        for letter, times in shown.items():
            if word.count(letter) < times:
                return False
    return True


def choose(scores: dict[str, float], preferred: set[str], words: Sequence[str]) -> str:
    """Highest score by the tie rule, a preferred word first, then word order."""
    names = list(scores)
    order = ranks_with_ties(
        [scores[w] for w in names],
        higher_is_better=True,
        keys=[[w not in preferred for w in names], [words.index(w) for w in names]],
    )
    return names[order[0]]


Chooser = Callable[[int, list[str], list[tuple[str, int]]], str]


@dataclass
class NaivePlayer:
    """Every strategy of pipeline.analysis.benchmark.strategies, from its docstring, one answer at a
    time: the words (sorted), the answers and p_common per word."""

    words: list[str]
    answers: list[str]
    p_common: list[float]
    memo: dict = field(default_factory=dict)

    def remember(self, key: tuple, compute: Callable[[], str]) -> str:
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    def entropy(self, guess: str, pool: Sequence[str], weight=None) -> float:
        return guess_entropy(guess, pool, weight)

    def greedy(self, remaining: Sequence[str], allowed: Sequence[str] | None = None) -> str:
        allowed = self.words if allowed is None else allowed
        return choose({g: self.entropy(g, remaining) for g in allowed}, set(remaining), self.words)

    def most_parts(self, remaining: Sequence[str]) -> str:
        scores = {g: len(reply_groups(g, remaining)) for g in self.words}
        return choose(scores, set(remaining), self.words)

    def minimax(self, remaining: Sequence[str]) -> str:
        scores = {g: -max(map(len, reply_groups(g, remaining).values())) for g in self.words}
        return choose(scores, set(remaining), self.words)

    def letter_frequency(self, remaining: Sequence[str], pool: str = "candidates") -> str:
        counts = Counter((i, ch) for word in remaining for i, ch in enumerate(word))
        scores = {}
        for word in remaining if pool == "candidates" else self.words:
            firsts = [i for i, ch in enumerate(word) if ch not in word[:i]]
            scores[word] = sum(counts[(i, word[i])] for i in firsts)
        return choose(scores, set(remaining), self.words)

    def two_step_total(self, guess: str, remaining: Sequence[str]) -> float:
        """H1 + sum_b P(b) max_g2 H(g2 | b), g2 any word."""
        total = self.entropy(guess, remaining)
        for bucket in reply_groups(guess, remaining).values():
            if len(bucket) > 1:
                best = max(self.entropy(g, bucket) for g in self.words)
                total += len(bucket) / len(remaining) * best
        return total

    def two_step_ranking(self, pool: int = 100) -> list[str]:
        """The `pool` best openers by entropy, ranked by two-step total (tie rule)."""
        h1 = [self.entropy(g, self.answers) for g in self.words]
        top = sorted(ranks_with_ties(h1, higher_is_better=True)[:pool])
        totals = [self.two_step_total(self.words[g], self.answers) for g in top]
        return [self.words[top[i]] for i in ranks_with_ties(totals, higher_is_better=True)]

    def two_step_later(self, remaining: Sequence[str], top_n: int = 10) -> str:
        """The `top_n` best by entropy (possible answers first within ties), then the
        best two-step total among them."""
        h1 = [self.entropy(g, remaining) for g in self.words]
        outside = [w not in remaining for w in self.words]
        top = ranks_with_ties(h1, higher_is_better=True, keys=[outside])[:top_n]
        return choose(
            {self.words[g]: self.two_step_total(self.words[g], remaining) for g in sorted(top)},
            set(remaining),
            self.words,
        )

    def commonness(self, candidates: Sequence[str], bits_ref=11.5, guesses_ref=1.5) -> str:
        """Lowest expected number of guesses E(g) (the strategies docstring's model)."""
        weight = dict(zip(self.words, self.p_common, strict=True))
        total = sum(weight[w] for w in candidates)
        prob = {w: weight[w] / total for w in candidates}
        h0 = -sum(p * math.log2(p) for p in prob.values() if p > 0)
        scores = {}
        for g in self.words:
            left = max(h0 - self.entropy(g, candidates, weight), 0.0)
            f = 2 - 2**-left + guesses_ref * left / bits_ref
            p = prob.get(g, 0.0)
            scores[g] = -(p + (1 - p) * (1 + f))
        return choose(scores, set(candidates), self.words)

    def choosers(self, ranking: Sequence[str]) -> dict[str, Chooser]:
        """strategy name -> chooser(turn, remaining answers, history) -> guess."""

        def memo(name: str, function: Callable[..., str]) -> Callable[..., str]:
            return lambda *key: self.remember(
                (name, *[tuple(k) if isinstance(k, list) else k for k in key]),
                lambda: function(*key),
            )

        greedy, parts = memo("g", self.greedy), memo("p", self.most_parts)
        mini, letters = memo("m", self.minimax), memo("l", self.letter_frequency)
        later = memo("t", self.two_step_later)
        ultrahard = memo("u", lambda r, h: self.greedy(r, consistent(self.words, h)))
        hard = memo("h", lambda r, h: self.greedy(r, [w for w in self.words if hard_legal(w, h)]))
        common = memo("c", lambda h: self.commonness(consistent(self.words, h)))
        return {
            "greedy_entropy": lambda t, r, h: greedy(r),
            "most_parts": lambda t, r, h: parts(r),
            "minimax": lambda t, r, h: mini(r),
            "letter_frequency": lambda t, r, h: letters(r),
            "greedy_entropy_ultrahard": lambda t, r, h: ultrahard(r, h) if h else greedy(r),
            "greedy_entropy_hard": lambda t, r, h: hard(r, h) if h else greedy(r),
            "two_step": lambda t, r, h: ranking[0] if t == 1 else greedy(r) if t == 2 else later(r),
            "commonness": lambda t, r, h: common(h),
        }

    def play(self, answer: str, chooser: Chooser, max_turns: int = 12) -> dict:
        """One game: the guesses, replies, answers left before each guess, finished."""
        green = 3 ** len(answer) - 1
        remaining = list(self.answers)
        history: list[tuple[str, int]] = []
        sizes = []
        while len(history) < max_turns:
            guess = chooser(len(history) + 1, remaining, history)
            pattern = feedback(guess, answer)
            sizes.append(len(remaining))
            history.append((guess, pattern))
            if pattern == green:
                break
            remaining = [a for a in remaining if feedback(guess, a) == pattern]
        return {
            "guesses": [g for g, _ in history],
            "patterns": [p for _, p in history],
            "candidates": sizes,
            "finished": history[-1][1] == green,
        }


def least_totals(
    words: Sequence[str],
    answers: Sequence[str],
    hard: bool = False,
    openers: Sequence[str] | None = None,
) -> dict[str, float]:
    """Per opener (default every word), the least total guesses of any tree opening with
    it that wins every answer within six guesses (math.inf: none), by plain exhaustive
    recursion: every guess at every node (in hard mode every legal one), no bounds; a guess
    that does not split the answers and is not one of them is never part of a least tree."""
    green = 3 ** len(words[0]) - 1

    @cache
    def cost(guess: str, pool: frozenset, history: tuple, depth: int) -> float:
        if depth > 6:
            return math.inf
        total = float(len(pool))
        for reply, members in reply_groups(guess, sorted(pool)).items():
            if reply != green:
                after = (*history, (guess, reply)) if hard else ()
                total += best(frozenset(members), after, depth + 1)
        return total

    @cache
    def best(pool: frozenset, history: tuple, depth: int) -> float:
        options = [g for g in words if not hard or hard_legal(g, history)]
        useful = [g for g in options if g in pool or len(reply_groups(g, sorted(pool))) > 1]
        return min((cost(g, pool, history, depth) for g in useful), default=math.inf)

    return {opener: cost(opener, frozenset(answers), (), 1) for opener in openers or words}
