"""Tuning constants of the optimal search, and the bounds and prunings it applies.

A node is a set H of n possible answers with some guesses left; its value is the least
total of guesses over H (see recursion). Every mechanism below only saves work: each can
be switched off by name (`solve_opener(..., off=...)`) and the proven totals and trees
stay the same, only slower (tests/kernels/optimal_search/test_solve.py checks each one alone against
brute force). What is not listed is the definition itself: the depth limit, n = 1 or 2,
classes that cannot finish in the guesses left, the exact cost of a class of one or two
answers, and the beta cut-off contract (a value at or above beta may be any bound).

- guess_bound: a guess splitting H into k classes, hit = 1 if it is in H, costs at
  least 3n - k - hit (Selby); a guess whose bound reaches beta is skipped, a node whose
  least bound reaches beta is cut, a node stops at the first guess that meets it, and a
  node of n answers costs at least 2n - 1. Applies at every node of n >= 3.
- collisions: while a guess's replies are counted, it is dropped as soon as so many
  answers share a class that its guess bound reaches beta. Applies in every scan.
- shortcuts: a candidate splitting H into singletons (2n - 1), into singletons and one
  pair (2n, three guesses left), any guess splitting into singletons (2n), a guess whose
  classes all have <= 2 answers when none can beat it (exact), and with two guesses left
  only such singleton splits can win. Applies before and during a node's scan.
- one_class: a guess that leaves H in one class never helps (it costs n guesses and
  only shrinks what hard mode allows); it is not tried.
- order: guesses are tried by 2 * sum c^2 + n * bound (Selby's heuristic), not by row
  (top_k keeps the first top_k guesses of the order in use).
- class_bounds (pass 1): a class of c >= 3 answers costs at least 3c - 1, plus c - P when
  no guess gets more than P replies (off: c, this guess); the guess is cut once its
  classes' bounds reach beta.
- cheap_pass (pass 2): classes are first tried with the memo and the shortcuts only,
  tightening their bounds before any full search.
- smallest_first (pass 3): full searches go from the smallest class up.
- memo: solved nodes and proven lower bounds are kept (memo), keyed exactly. The memo
  is read while either this or `inferred` is on.
- inferred: a cut-off bounds the unions of classes that sibling guesses produce
  (infer), stored in the memo.
- distinct: of guesses that agree on every letter present in H, only the lowest row is
  scored (letters absent from H are interchangeable). Applies at every node below the root.
"""

from __future__ import annotations

REPLY_BLOCK = 256  # guesses whose replies are gathered at once (256 * n bytes stay in cache)
MEMO_SLOTS_LOG2 = 21  # 2M memo slots (48 MB)
MEMO_POOL = 1 << 25  # 32M answer ids of memo keys (128 MB)
MEMO_LOAD_PERCENT = 60  # the memo is cleared when more than this share of its slots is used
SEEN_SLOTS_LOG2 = 15  # slots of the hash set of projected guesses (distinct)

MECHANISMS = (
    "guess_bound",
    "collisions",
    "shortcuts",
    "one_class",
    "order",
    "class_bounds",
    "cheap_pass",
    "smallest_first",
    "memo",
    "inferred",
    "distinct",
)
# Bit of each mechanism in the search's flags (params slot P_FLAGS); all set by default.
(
    F_GUESS_BOUND,
    F_COLLISIONS,
    F_SHORTCUTS,
    F_ONE_CLASS,
    F_ORDER,
    F_CLASS_BOUNDS,
    F_CHEAP_PASS,
    F_SMALLEST_FIRST,
    F_MEMO,
    F_INFERRED,
    F_DISTINCT,
) = (1 << i for i in range(len(MECHANISMS)))
ALL_ON = (1 << len(MECHANISMS)) - 1


def flags_without(off: frozenset[str] | set[str] | tuple[str, ...]) -> int:
    """The flags with the named mechanisms switched off; an unknown name is an error."""
    unknown = sorted(set(off) - set(MECHANISMS))
    if unknown:
        raise ValueError(f"unknown pruning mechanisms {unknown}; they are {list(MECHANISMS)}")
    return ALL_ON & ~sum(1 << MECHANISMS.index(name) for name in set(off))
