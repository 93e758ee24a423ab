"""Settings, counters and preallocated buffers of one optimal search (the SearchContext).

The search never allocates: every buffer it needs (per depth of the recursion) is made
here once per solve. The context is a namedtuple of numpy arrays, which numba passes to
its kernels as one typed argument; settings and counters are small int64 arrays indexed
by the P_* and S_* slot constants.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from pipeline.core.wordle import ALPHABET_SIZE
from pipeline.kernels.optimal_search.endgame import answer_families
from pipeline.kernels.optimal_search.hard_state import packed_words, pattern_digits
from pipeline.kernels.optimal_search.memo import new_memo
from pipeline.kernels.optimal_search.tuning import (
    MEMO_POOL,
    MEMO_SLOTS_LOG2,
    REPLY_BLOCK,
    SEEN_SLOTS_LOG2,
)

INF = 1 << 29  # the value of a node that no tree solves within the depth limit
ID_BITS = 20  # the low bits of an ordering key hold the guess row
ID_MASK = (1 << ID_BITS) - 1
# params slots: depth limit, top_k (0 = all), hard mode, all-green id, number of patterns,
# most replies any guess gets, depth of the node the current call started from, the
# pruning mechanisms switched on (tuning.F_* bits), the largest node top_k spares (nodes
# of at most that many answers are searched in full; 0: top_k applies everywhere), the
# opener whose root classes start from `floors` and whose root partition (depth 0) is
# already in place (-1: none; see solve.solve_one), whether answers carry weights (1) or
# all count alike (0: the uniform search, whose code paths read no weight)
(P_MAXG, P_TOPK, P_HARD, P_ALLGREEN, P_NPAT, P_MAXPAT, P_ROOT, P_FLAGS, P_EXACT,
 P_FLOORED, P_WEIGHTED) = range(11)  # fmt: skip
# stats slots: nodes entered, full guess scans, (guess, answer) pairs scanned, guesses scored
S_NODES, S_SCANS, S_SCANNED, S_EVALS = range(4)

SearchContext = namedtuple(
    "SearchContext",
    [
        "m",  # (G, A) pattern ids (uint8 up to 5 letters, else uint16), rows are guesses
        "mt",  # (A, G) transposed copy: a full scan streams one row per answer
        "answer_rows",  # (A,) int32 word row of each answer column
        "weights",  # (A,) int64 positive weight of each answer column; empty for the
        # uniform search (params[P_WEIGHTED] 0), which reads none (see weights.py)
        "letters",  # (G, L) uint8 letter codes (hard mode)
        "packed",  # (G, 3 or 5) uint64 packed letters and letter counts (hard mode)
        "digits",  # (3**L, L) uint8 colour of each position of each pattern
        "part",  # (D + 2, A) int32: row d holds H split by the guess tried at depth d;
        # the last row holds the answers of the node the search starts from
        "cls_size",  # (D + 1, P) int32 class sizes at each depth (zero when unused)
        "cls_start",  # (D + 1, P) int32 class offsets into part[d]
        "cls_list",  # (D + 1, P) int32 the non-empty classes, by pattern id
        "cls_n",  # (D + 1,) int64 how many of them
        "cls_lb",  # (D + 1, P) int64 bound (or exact total) per class
        "cls_w",  # (D + 1, P) int64 class weights (weighted search only: uniform reads sizes)
        "cls_wmax",  # (D + 1, P) int64 weight of each class's heaviest answer (weighted only)
        "cls_pend",  # (D + 1, P) int32 classes still to search
        "floors",  # (P,) int64 lower bound per root class of the opener params[P_FLOORED]
        "cnt",  # (P,) int32 histogram scratch, all zero between uses
        "heaviest",  # (P,) int64 scratch of weighted_class_stats, all zero between uses
        "keys",  # (D + 1, G) int64 ordering keys of the guesses tried at each depth
        "lbs",  # (D + 1, G) int64 lower bound per guess row at each depth
        "guess_stats",  # (4, G) int64 scratch of a weighted scan: k, sum c^2, hit, bound
        "allowed",  # (D + 1, G) int32 guess rows worth scoring at each depth
        "answer_letters",  # (A,) int64 set of the letters of each answer (bit a = letter a)
        "seen",  # (2**SEEN_SLOTS_LOG2,) int64 hash set of projected guesses (distinct_guesses)
        "seen_generation",  # (1,) int64 the current generation
        "n_allowed",  # (D + 1,) int64
        "green",  # (D + 1, L) int32 hard-mode state: green letter per position or -1
        "mins",  # (D + 1, 26) int32 hard-mode state: minimum count per letter
        "best",  # (D + 1,) int64 an optimal guess of the last node solved at depth d
        "replies",  # (REPLY_BLOCK * A,) replies (the dtype of m) of a block of guesses to H
        "merged",  # (A,) int32 scratch: a union of classes (infer)
        "families",  # (A, L) int32 family of each answer varying at each position, or -1
        "family_counts",  # (F,) int32 scratch, all zero between uses (endgame)
        "live",  # (D + 1, A) int32 the largest family's members at each depth (endgame)
        "top",  # (D + 1,) int64 scratch: the largest n_t - 1 (endgame.spread)
        "params",  # int64 settings (P_* slots)
        "stats",  # int64 counters (S_* slots)
        "memo",  # memo.Memo
    ],
)


def build_context(
    matrix, answer_rows, encoded, hard, max_guesses, top_k, flags, exact_upto=0, most=None,
    weights=None,
) -> SearchContext:  # fmt: skip
    """Every buffer one search uses, for checked inputs (see optimal_search).

    most: the most distinct replies any guess gets over all answers, when the caller
    knows it (computing it reads the whole matrix). weights: checked positive int64
    weights, one per answer column; None: every answer counts 1 (the uniform search)."""
    n_guesses, n_answers = matrix.shape
    length = encoded.shape[1]
    n_patterns = 3**length
    depths = max_guesses + 1
    params = np.zeros(11, dtype=np.int64)
    params[P_FLOORED] = -1
    params[[P_MAXG, P_TOPK, P_HARD]] = max_guesses, top_k or 0, int(hard)
    params[P_EXACT] = exact_upto
    params[[P_ALLGREEN, P_NPAT]] = n_patterns - 1, n_patterns
    params[P_MAXPAT] = max_replies(matrix, n_patterns) if most is None else most
    params[P_FLAGS] = flags
    params[P_WEIGHTED] = int(weights is not None)
    if weights is None:  # uniform: no weights to read (see weights.py)
        weights = np.zeros(0, dtype=np.int64)
    allowed = np.zeros((depths, n_guesses), dtype=np.int32)
    allowed[0] = np.arange(n_guesses, dtype=np.int32)
    n_allowed = np.zeros(depths, dtype=np.int64)
    n_allowed[0] = n_guesses
    per_class = (depths, n_patterns)
    per_guess = (depths, n_guesses)
    families, n_families = answer_families(encoded[answer_rows])
    return SearchContext(
        m=matrix,
        mt=transposed(matrix),
        answer_rows=answer_rows,
        weights=np.ascontiguousarray(weights, dtype=np.int64),
        letters=encoded,
        packed=packed_words(encoded),
        digits=pattern_digits(length),
        part=np.zeros((depths + 1, n_answers), dtype=np.int32),
        cls_size=np.zeros(per_class, dtype=np.int32),
        cls_start=np.zeros(per_class, dtype=np.int32),
        cls_list=np.zeros(per_class, dtype=np.int32),
        cls_n=np.zeros(depths, dtype=np.int64),
        cls_lb=np.zeros(per_class, dtype=np.int64),
        cls_w=np.zeros(per_class, dtype=np.int64),
        cls_wmax=np.zeros(per_class, dtype=np.int64),
        cls_pend=np.zeros(per_class, dtype=np.int32),
        floors=np.zeros(n_patterns, dtype=np.int64),
        cnt=np.zeros(n_patterns, dtype=np.int32),
        heaviest=np.zeros(n_patterns, dtype=np.int64),
        keys=np.zeros(per_guess, dtype=np.int64),
        lbs=np.zeros(per_guess, dtype=np.int64),
        guess_stats=np.zeros((4, n_guesses), dtype=np.int64),
        allowed=allowed,
        answer_letters=letter_sets(encoded[answer_rows]),
        seen=np.zeros(1 << SEEN_SLOTS_LOG2, dtype=np.int64),
        seen_generation=np.zeros(1, dtype=np.int64),
        n_allowed=n_allowed,
        green=np.full((depths, length), -1, dtype=np.int32),
        mins=np.zeros((depths, ALPHABET_SIZE), dtype=np.int32),
        best=np.full(depths, -1, dtype=np.int64),
        replies=np.zeros(REPLY_BLOCK * n_answers, dtype=matrix.dtype),
        merged=np.zeros(n_answers, dtype=np.int32),
        families=families,
        family_counts=np.zeros(max(n_families, 1), dtype=np.int32),
        live=np.zeros((depths, n_answers), dtype=np.int32),
        top=np.zeros(depths, dtype=np.int64),
        params=params,
        stats=np.zeros(4, dtype=np.int64),
        memo=new_memo(n_answers, length, MEMO_SLOTS_LOG2, MEMO_POOL),
    )


def transposed(matrix: np.ndarray, block: int = 256) -> np.ndarray:
    """A C-ordered copy of matrix.T, made by square blocks that stay in the CPU's caches:
    about half the time of np.ascontiguousarray(matrix.T) here (0.04 s against 0.08 s
    for nyt2023's 14,855 x 3,158 matrix), which every answer of the assistant pays."""
    rows, cols = matrix.shape
    result = np.empty((cols, rows), dtype=matrix.dtype)
    for i in range(0, rows, block):
        for j in range(0, cols, block):
            result[j : j + block, i : i + block] = matrix[i : i + block, j : j + block].T
    return result


def letter_sets(encoded: np.ndarray) -> np.ndarray:
    """Bit a of entry w is set when word w contains letter a."""
    sets = np.zeros(encoded.shape[0], dtype=np.int64)
    for position in range(encoded.shape[1]):
        sets |= np.int64(1) << encoded[:, position].astype(np.int64)
    return sets


def max_replies(matrix: np.ndarray, n_patterns: int) -> int:
    """The most distinct replies any guess gets over all answers (for Selby's c - P bound)."""
    most = 0
    for start in range(0, matrix.shape[0], 1024):
        block = matrix[start : start + 1024].astype(np.int64)
        seen = np.zeros((block.shape[0], n_patterns), dtype=bool)
        seen[np.arange(block.shape[0])[:, None], block] = True
        most = max(most, int(seen.sum(axis=1).max()))
    return most
