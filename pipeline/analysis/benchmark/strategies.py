"""Strategies: deterministic guess rules, each a function of what the player knows.

A strategy is configured as {"name": ..., parameters ..., "label": optional}; the
parameters, their types and bounds are in the config schema, their defaults in the
constructors below. Every strategy takes an optional `opener` (a word played first).

- greedy_entropy: the guess of highest entropy over the remaining answers.
- greedy_entropy_ultrahard: the same, but only words consistent with all feedback so far
  (pattern(previous guess, word) == observed pattern for every previous turn) may be
  guessed (Selby's -U "ultrahard"); stricter than hard mode, whose rule such a word obeys.
- greedy_entropy_hard: the same over the guesses legal in NYT hard mode
  (pipeline.core.hard_mode: greens stay in place, every revealed letter is used again
  with its multiplicity, grey letters may be reused; Selby's -H).
- most_parts: the guess with the most distinct replies; minimax: the guess whose
  largest reply bucket is smallest.
- two_step: first the top of the two-step opener ranking, then the stored second guess
  for the reply (without one: greedy_entropy on the bucket, the same definition), then at
  every later turn the best two-step score among the `top_n` guesses by entropy (3Blue1
  Brown's look-ahead). H1 + E[H2] is the entropy of the pair of replies, so it is
  computed exactly as log2 n - sum_b min_g2 S(g2 | b) / (n * scale) with integer S.
- commonness: the answer list is unknown. Candidates are every allowed word consistent
  with the feedback so far, weighted by p_common, and each guess g is scored by the
  expected number of guesses to finish (3Blue1Brown's model):
      E(g) = p(g) * 1 + (1 - p(g)) * (1 + f(max(H0 - H(g), 0)))
  with p(g) the normalised weight of g among the candidates (0 if it is not one), H0 the
  entropy of the candidate weights, H(g) the weighted entropy of g's replies, and
      f(h) = 2**-h + 2 * (1 - 2**-h) + guesses_ref * h / bits_ref.
  The lowest E wins. Games are still played against the real answers.
- letter_frequency: the baseline. Among the remaining answers count each letter at each
  position; a word scores the summed positional counts of its letters, each distinct
  letter counted once. The pool is the remaining answers or every allowed word.

Ties follow pipeline.core.ties: scores within the tolerance (1e-9 bits for entropies,
as an integer S difference for fixed-point sums; 1e-9 guesses for E) of the best are
equal; then a word that is still a possible answer wins, then the lower word_id.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pipeline.analysis.advice.splits import entropy_bits
from pipeline.analysis.benchmark.game_state import GameData, Node
from pipeline.analysis.benchmark.node_choices import (
    best_by_partition,
    greedy_entropy_guess,
    node_stats,
    pick,
    two_step_sums,
)
from pipeline.core import hard_mode
from pipeline.core.errors import PipelineError
from pipeline.core.ties import TIE_TOLERANCE, leading_positions, rank_order
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.partition import pattern_entropies


class Strategy:
    """A deterministic guess rule: choose(node) and, when it keeps state, child_state."""

    def __init__(self, data: GameData, opener: int | None) -> None:
        self.data = data
        self.opener = opener

    def initial_state(self) -> Any:
        return None

    def first_guess(self, node: Node) -> int:
        return self.choose(node)

    def choose(self, node: Node) -> int:
        raise NotImplementedError

    def guess(self, node: Node) -> int:
        if node.turn == 1:
            return self.opener if self.opener is not None else self.first_guess(node)
        return self.choose(node)

    def child_state(self, node: Node, guess: int, pattern: int) -> Any:
        return None

    def candidate_rows(self, node: Node) -> np.ndarray:
        return self.data.answer_rows[node.answers]

    def preferred(self, node: Node) -> np.ndarray:
        mask = np.zeros(len(self.data.words), dtype=bool)
        mask[self.candidate_rows(node)] = True
        return mask


class PartitionStrategy(Strategy):
    """greedy_entropy, most_parts, minimax: the best guess over all words for the node's
    answers; memoised on the answer set (shared by every tree that uses the criterion)."""

    def __init__(self, data: GameData, opener: int | None, criterion: str) -> None:
        super().__init__(data, opener)
        self.criterion = criterion
        self.all_rows = np.arange(len(data.words), dtype=np.int64)
        self.cache: dict[bytes, int] = data.caches.setdefault(criterion, {})

    def choose(self, node: Node) -> int:
        key = node.answers.tobytes()
        guess = self.cache.get(key)
        if guess is None:
            if self.criterion == "entropy":
                guess = greedy_entropy_guess(self.data, node.answers)
            else:
                guess = best_by_partition(self.data, self.all_rows, node.answers, self.criterion)
            self.cache[key] = guess
        return guess


class UltrahardEntropyStrategy(Strategy):
    """greedy_entropy in ultrahard mode: state = word_ids consistent with all feedback."""

    def initial_state(self) -> np.ndarray:
        return np.arange(len(self.data.words), dtype=np.int64)

    def choose(self, node: Node) -> int:
        return best_by_partition(self.data, node.state, node.answers, "entropy")

    def child_state(self, node: Node, guess: int, pattern: int) -> np.ndarray:
        allowed = node.state
        replies = feedback_matrix(self.data.encoded[[guess]], self.data.encoded[allowed])
        return allowed[replies[0] == pattern]


class HardEntropyStrategy(Strategy):
    """greedy_entropy in NYT hard mode: state = word_ids still legal under the rule. The
    rule is a conjunction over turns, so each reply only narrows the parent's words."""

    def initial_state(self) -> np.ndarray:
        return np.arange(len(self.data.words), dtype=np.int64)

    def choose(self, node: Node) -> int:
        return best_by_partition(self.data, node.state, node.answers, "entropy")

    def child_state(self, node: Node, guess: int, pattern: int) -> np.ndarray:
        legal = node.state
        colours = hard_mode.pattern_colours([pattern], self.data.length)
        rule = hard_mode.requirements(self.data.encoded[[guess]], colours)
        counts = self.data.caches.setdefault("letter_counts", {})
        if "all" not in counts:
            counts["all"] = hard_mode.letter_counts(self.data.encoded)
        mask = hard_mode.legal_mask(self.data.encoded[legal], rule, counts["all"][legal])
        return legal[mask]


class LetterFrequencyStrategy(Strategy):
    """Positional letter counts among the remaining answers, distinct letters once."""

    def __init__(self, data: GameData, opener: int | None, pool: str = "candidates") -> None:
        super().__init__(data, opener)
        if pool not in ("candidates", "allowed"):
            raise PipelineError(f"letter_frequency pool must be candidates or allowed: {pool!r}")
        self.pool = pool
        encoded = data.encoded.astype(np.int64)
        length = encoded.shape[1]
        earlier = np.tri(length, k=-1, dtype=bool)  # [i, k]: k < i
        repeat = ((encoded[:, :, None] == encoded[:, None, :]) & earlier[None]).any(axis=2)
        self.first = ~repeat  # (G, L): the letter's first position in the word
        self.codes = encoded

    def choose(self, node: Node) -> int:
        data = self.data
        cand_rows = data.answer_rows[node.answers]
        length = data.length
        counts = np.zeros((length, 26), dtype=np.int64)
        for i in range(length):
            counts[i] = np.bincount(self.codes[cand_rows, i], minlength=26)
        rows = cand_rows if self.pool == "candidates" else np.arange(len(data.words))
        positional = counts[np.arange(length)[None, :], self.codes[rows]]
        scores = (positional * self.first[rows]).sum(axis=1)
        preferred = np.zeros(len(data.words), dtype=bool)
        preferred[cand_rows] = True
        return pick(rows, -scores, 0, preferred[rows])


class CommonnessStrategy(Strategy):
    """Answer list unknown: candidates are consistent allowed words weighted by p_common;
    minimise the expected number of guesses E(g) (see the module docstring)."""

    def __init__(
        self, data: GameData, opener: int | None, bits_ref: float = 11.5, guesses_ref: float = 1.5
    ) -> None:
        super().__init__(data, opener)
        self.bits_ref = bits_ref
        self.guesses_ref = guesses_ref

    def initial_state(self) -> np.ndarray:
        return np.arange(len(self.data.words), dtype=np.int64)

    def candidate_rows(self, node: Node) -> np.ndarray:
        return node.state

    def expected_scores(
        self, guesses: np.ndarray, candidates: np.ndarray, probs: np.ndarray, h0: float
    ) -> np.ndarray:
        """E(g) for each guess word_id, given candidate word_ids and their probabilities."""
        encoded = self.data.encoded
        _, h = pattern_entropies(
            encoded[guesses], encoded[candidates], probs, threads=self.data.threads
        )
        p_now = np.zeros(len(self.data.words))
        p_now[candidates] = probs
        p_now = p_now[guesses]
        left = np.maximum(h0 - h, 0.0)
        future = 2.0 - 2.0**-left + self.guesses_ref * left / self.bits_ref
        return p_now + (1.0 - p_now) * (1.0 + future)

    def choose(self, node: Node) -> int:
        """Candidates are scored first: E of a non-candidate is 1 + f(x) >= 1 + f(0) = 2
        (f grows, and H(g) <= H0), so a candidate with E < 2 - tolerance beats them all
        and the full scan of every allowed word is skipped. Otherwise only the other words
        are scored in it (a word's score does not depend on which others are scored; at
        the first turn every word is a candidate, and the scan scored 14855 words twice)."""
        candidates = node.state
        if len(candidates) == 1:
            return int(candidates[0])
        weights = self.data.p_common[candidates]
        if not weights.sum() > 0:
            weights = np.ones(len(candidates))
        probs = weights / weights.sum()
        positive = probs[probs > 0]
        h0 = entropy_bits(positive)
        candidate_scores = self.expected_scores(candidates, candidates, probs, h0)
        if candidate_scores.min() < 2.0 - TIE_TOLERANCE:
            return pick(candidates, candidate_scores, TIE_TOLERANCE, np.ones(len(candidates), bool))
        rows = np.arange(len(self.data.words), dtype=np.int64)
        scores = np.empty(len(rows))
        scores[candidates] = candidate_scores
        others = np.ones(len(rows), dtype=bool)
        others[candidates] = False
        if others.any():
            scores[others] = self.expected_scores(rows[others], candidates, probs, h0)
        return pick(rows, scores, TIE_TOLERANCE, self.preferred(node))

    def child_state(self, node: Node, guess: int, pattern: int) -> np.ndarray:
        candidates = node.state
        replies = feedback_matrix(self.data.encoded[[guess]], self.data.encoded[candidates])
        return candidates[replies[0] == pattern]


def opener_ranking(data: GameData, pool: int = 100) -> list[int]:
    """word_ids of openers by the two-step ranking, best first: the stored ranking when
    given; otherwise computed the way the openers stage defines it, for the `pool` best
    openers by entropy."""
    if data.opener_ranking is not None:
        return data.opener_ranking
    cache = data.caches.setdefault("ranking", {})
    if pool not in cache:
        rows = np.arange(len(data.words), dtype=np.int64)
        cols = np.arange(len(data.answer_rows), dtype=np.int64)
        s, _, _ = node_stats(data, rows, cols)
        tol = data.tolerance(len(cols))
        top = leading_positions(s, pool, higher_is_better=False, tolerance=tol)
        top = np.sort(top)
        totals = two_step_sums(data, [int(g) for g in top], cols)
        cache[pool] = [
            int(g) for g in top[rank_order(totals, higher_is_better=False, tolerance=tol)]
        ]
    return cache[pool]


class TwoStepStrategy(Strategy):
    """Two-step opener, stored second guess, then two-step look-ahead over the top_n."""

    def __init__(
        self, data: GameData, opener: int | None, top_n: int = 10, pool: int = 100
    ) -> None:
        super().__init__(data, opener)
        if top_n < 1 or pool < 1:
            raise PipelineError("two_step needs top_n >= 1 and pool >= 1")
        self.top_n = top_n
        self.pool = pool
        self.seconds: dict[int, dict[int, int]] = {}
        self.greedy = PartitionStrategy(data, None, "entropy")

    def first_guess(self, node: Node) -> int:
        return opener_ranking(self.data, self.pool)[0]

    def second_guess(self, opener: int, pattern: int, answers: np.ndarray) -> int:
        if opener not in self.seconds:
            lookup = self.data.second_guesses
            self.seconds[opener] = lookup(opener) if lookup is not None else {}
        table = self.seconds[opener]
        if pattern in table:
            return table[pattern]
        return self.greedy.choose(Node(2, answers))  # no stored row: the same definition

    def choose(self, node: Node) -> int:
        if node.turn == 2:
            return self.second_guess(node.guesses[0], node.patterns[0], node.answers)
        data = self.data
        answers = node.answers
        cand_rows = data.answer_rows[answers]
        if len(answers) <= 2:
            return int(cand_rows[0])
        rows = np.arange(len(data.words), dtype=np.int64)
        s, _, _ = node_stats(data, rows, answers)
        preferred = self.preferred(node)
        tol = data.tolerance(len(answers))
        top = leading_positions(
            s, self.top_n, higher_is_better=False, keys=[~preferred], tolerance=tol
        )
        top.sort()
        totals = two_step_sums(data, [int(g) for g in top], answers)
        return pick(top, totals, tol, preferred[top])


def make_strategy(data: GameData, config: Mapping[str, Any]) -> tuple[str, Strategy]:
    """(label, strategy) for one strategy config (checked by the config schema)."""
    params = {k: v for k, v in config.items() if k not in ("name", "label")}
    name = config["name"]
    label = str(config.get("label") or name)
    opener = params.pop("opener", None)
    opener_id = data.word_id(opener) if opener else None
    criteria = {"greedy_entropy": "entropy", "most_parts": "parts", "minimax": "minimax"}
    if name in criteria:
        check_parameters(name, params, ())
        return label, PartitionStrategy(data, opener_id, criteria[name])
    builders = {
        "greedy_entropy_hard": HardEntropyStrategy,
        "greedy_entropy_ultrahard": UltrahardEntropyStrategy,
        "two_step": TwoStepStrategy,
        "commonness": CommonnessStrategy,
        "letter_frequency": LetterFrequencyStrategy,
    }
    if name not in builders:
        raise PipelineError(f"strategy {name!r} cannot be built on its own")
    known = list(inspect.signature(builders[name]).parameters)[2:]  # after data, opener
    check_parameters(name, params, known)
    return label, builders[name](data, opener_id, **params)


def check_parameters(name: str, params: Mapping[str, Any], known: Sequence[str]) -> None:
    """Fail on a parameter the strategy does not take (a misspelt one is never ignored)."""
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise PipelineError(
            f"strategy {name!r} has unknown parameters {unknown}; it takes {sorted(known)}"
        )
