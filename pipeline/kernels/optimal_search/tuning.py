"""Tuning constants of the optimal search, and the bounds and prunings it applies.

A node is a set H of n possible answers with some guesses left; its value is the least
total of guesses over H (see recursion). Every mechanism below only saves work: each can
be switched off by name (`solve_opener(..., off=...)`), those of DEFAULT_OFF on
(`on=...`), and the proven totals and trees stay the same
(tests/kernels/optimal_search/test_solve.py checks each one alone against brute force).
What is not listed is the definition itself: the depth limit, n = 1 or 2,
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
- endgame: a one-position family of mx answers in H (`.ight`) that the guesses left
  cannot separate (mx - 1 above the sum of the rem - 1 largest n_t - 1, n_t a guess's
  distinct replies on it) makes the node INF (endgame, after Selby). Applies at every
  node searched in full with three or more guesses left whose largest family has more
  members than guesses left (with two left the scan's own test is cheaper). The same
  totals and trees; an opener the screen refutes may be proven to have no tree instead,
  which its row of optimal_openers says.
- endgame_search (off by default: DEFAULT_OFF): where that sum leaves a margin below
  rem - 1, the family alone is searched first, and cuts the node when its value reaches
  beta (Selby). Not at a node top_k applies to (its values are a policy's, not bounds).

Under answer weights (solve_opener's `weights`) `collisions` and `shortcuts` are off
(UNWEIGHTED); every other mechanism holds as written, with each count that stands for
guesses read as a weight and Selby's bounds in their weighted forms (selby).
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
    "endgame",
    "endgame_search",
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
    F_ENDGAME,
    F_ENDGAME_SEARCH,
) = (1 << i for i in range(len(MECHANISMS)))
ALL_ON = (1 << len(MECHANISMS)) - 1


# Mechanisms not yet generalised to answer weights (weights, issue 61): a weighted search
# switches them off whatever `on` says. Their rules count answers (the collision limit
# from 3n - k - hit, the 2n - 1 and 2n of the candidate splits); every other one holds
# with each count read as a weight (selby, infer, weights).
UNWEIGHTED = ("collisions", "shortcuts")

# Mechanisms that are exact but off unless named in `on`: measured not to pay
# (benchmarks/HISTORY.md, issue 62 M3: the family's own search costs the feasible
# openers of the hard-mode screen what it saves on the infeasible ones).
DEFAULT_OFF = ("endgame_search",)  # measured: no gain (benchmarks/HISTORY.md)


def flags_without(
    off: frozenset[str] | set[str] | tuple[str, ...],
    on: frozenset[str] | set[str] | tuple[str, ...] = (),
) -> int:
    """The flags with the named mechanisms switched off, and those of DEFAULT_OFF named in
    `on` switched on (off wins); an unknown name is an error."""
    unknown = sorted((set(off) | set(on)) - set(MECHANISMS))
    if unknown:
        raise ValueError(f"unknown pruning mechanisms {unknown}; they are {list(MECHANISMS)}")
    dropped = (set(DEFAULT_OFF) - set(on)) | set(off)
    return ALL_ON & ~sum(1 << MECHANISMS.index(name) for name in dropped)
