"""The optimal search's reference: a naive brute force over all trees, and the small
lists the search is checked on (issue 73: one shared place, as the other naive
references in tests/support/naive.py).

The brute force knows nothing of the search: it tries every guess at every node (with
exact memoisation), gets replies from the naive Wordle rule (tests.support.naive) and
its own hard-mode filter, and only stops adding up a guess once it can no longer win.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from functools import cache

from pipeline.kernels.optimal_search import prepare_lists, solve_opener
from tests.support.fixtures import FIXTURE_ALLOWED, FIXTURE_ANSWERS
from tests.support.naive import feedback

INF = float("inf")


def naive_allowed(words, allowed, guess, pattern):
    """Words of `allowed` that keep the greens of (guess, pattern) and its revealed letters."""
    colours = [(pattern // 3**i) % 3 for i in range(len(guess))]
    need = Counter(g for g, c in zip(guess, colours, strict=True) if c)
    return frozenset(
        w
        for w in allowed
        if all(words[w][i] == guess[i] for i, c in enumerate(colours) if c == 2)
        and all(words[w].count(letter) >= k for letter, k in need.items())
    )


class BruteForce:
    """Exact minimum totals by trying every guess at every node (memoised on the node).

    `weights` (positive integers, one per answer; default 1 each) weigh each answer's
    guesses: the total is the sum over answers of weight x guesses, the prior's exact
    numerator (issue 61). A guess that ends no answer and splits none is never optimal."""

    def __init__(self, words, answers, hard, weights=None):
        self.words, self.answers, self.hard = words, answers, hard
        self.weights = tuple(weights) if weights is not None else (1,) * len(answers)
        assert len(self.weights) == len(answers) and min(self.weights) > 0
        self.all_green = 3 ** len(words[0]) - 1
        self.replies = [[feedback(g, a) for a in answers] for g in words]
        self.everything = frozenset(range(len(words)))

    def opener(self, guess, max_guesses):
        return self.play(frozenset(range(len(self.answers))), max_guesses, self.everything, guess)

    @cache  # noqa: B019 - one instance per test list, kept for the session
    def node(self, answer_set, left, allowed):
        if left == 0:
            return INF
        best = INF
        for guess in sorted(allowed):
            best = min(best, self.play(answer_set, left, allowed, guess, best))
        return best

    def play(self, answer_set, left, allowed, guess, bound=INF):
        """Total of `guess` here, or some number >= bound once it cannot beat bound."""
        classes = defaultdict(list)
        for a in sorted(answer_set):
            classes[self.replies[guess][a]].append(a)
        total = sum(self.weights[a] for a in answer_set)
        for pattern, members in sorted(classes.items()):
            if pattern != self.all_green:
                total += self.node(
                    frozenset(members), left - 1, self.child(allowed, guess, pattern)
                )
                if total >= bound:
                    break
        return total

    @cache  # noqa: B019
    def child(self, allowed, guess, pattern):
        if not self.hard:
            return allowed
        return naive_allowed(self.words, allowed, self.words[guess], pattern)


def family_lists(seed, families, n_helpers, alphabet="bfhklmnprstwgido"):
    """Answers in families that differ by one letter (hard for hard mode), plus random
    helper guesses over their letters (some with repeated letters)."""
    rng = random.Random(seed)
    answers = sorted({word for family in families for word in family.split()})
    words = set(answers)
    while len(words) < len(answers) + n_helpers:
        words.add("".join(rng.choice(alphabet) for _ in range(5)))
    return sorted(words), answers


def random_lists(seed, n_words, n_answers, alphabet):
    rng = random.Random(seed)
    words = set()
    while len(words) < n_words:
        words.add("".join(rng.choice(alphabet) for _ in range(5)))
    words = sorted(words)
    return words, sorted(rng.sample(words, n_answers))


IGHT = "fight light might night right sight tight wight bight"
ILLS = "mills fills hills kills pills sills tills wills"
OUND = "bound found hound mound pound round sound wound"
CASES = {
    "fixture": (sorted(set(FIXTURE_ALLOWED) | set(FIXTURE_ANSWERS)), sorted(FIXTURE_ANSWERS)),
    "random": random_lists(2, 40, 20, "abeilno"),
    "two-families": family_lists(1, [IGHT, ILLS], 12),
    "three-families": family_lists(2, [IGHT, ILLS, OUND], 20),
}
_LISTS: dict = {}
_BRUTE: dict = {}


def lists(case):
    if case not in _LISTS:
        _LISTS[case] = prepare_lists(*CASES[case])
        assert _LISTS[case].words == CASES[case][0]
    return _LISTS[case]


def brute(case, hard):
    if (case, hard) not in _BRUTE:
        _BRUTE[case, hard] = BruteForce(*CASES[case], hard)
    return _BRUTE[case, hard]


def solve(case, opener, hard, max_guesses=6, top_k=None, cutoff=None, off=(), on=(), weights=None):
    w = lists(case)
    return solve_opener(
        w.matrix, w.answer_rows, w.encoded, opener,
        hard=hard, max_guesses=max_guesses, top_k=top_k, cutoff=cutoff, off=off, on=on,
        weights=weights,
    )  # fmt: skip


def openers(case):
    return range(0, len(CASES[case][0]), 5)


def real_lists(folder):
    allowed = (folder / "allowed.txt").read_text().split()
    answers = (folder / "answers.txt").read_text().split()
    return prepare_lists(allowed, answers), answers


def random_weights(seed: int, count: int, most: int = 12) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, most) for _ in range(count)]


_WEIGHED: dict = {}


def weighed_brute(case: str, hard: bool, seed: int) -> tuple[BruteForce, list[int]]:
    if (case, hard, seed) not in _WEIGHED:
        words, answers = CASES[case]
        weights = random_weights(seed, len(answers))
        _WEIGHED[case, hard, seed] = BruteForce(words, answers, hard, weights=weights), weights
    return _WEIGHED[case, hard, seed]
