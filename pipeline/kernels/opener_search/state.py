"""The named structures the opener search's kernels share (see count_search).

Each is a namedtuple of numpy arrays (and a few plain numbers), which numba passes to a
kernel as one typed argument: a kernel reads `context.ties.best[b]`, not the ninth of
twenty positional arguments. `OpenerContext` is everything one call of
CountSearch.winners uses; its per-call parts (tie lists, scratch) are made inside the
compiled code, where an allocation costs less than handing numba an array from Python.
A kernel called per block of guesses, per letter group or several times per bucket
takes a smaller structure (`Reads`, `Bounds`) or its arrays: numba counts a reference
to every array of a tuple argument on every call. The weighted search shares `TieState`
only.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.settings import PAIR_BLOCK

# What a search reads and never writes, fixed when the CountSearch is built.
SearchData = namedtuple(
    "SearchData",
    [
        "matrix",  # (G, A) patterns, rows guesses, columns answers
        "matrix_t",  # (A, G) the same, transposed: a small bucket's rows stay in cache
        "answer_rows",  # (A,) word_id of each answer column
        "delta",  # the fixed-point table's increments: S grows by delta[c] as a reply
        # gains its (c + 1)-th answer
        "values",  # the fixed-point c*log2(c) table (partition.fixed_point)
        "pair_table",  # pair_bound.pair_bound_table up to the largest pair bucket
        "span",  # int: pattern ids the matrix's dtype holds (the histograms' width)
    ],
)

# The buckets of one call: bucket b is columns[starts[b]:starts[b + 1]].
Query = namedtuple(
    "Query",
    [
        "columns",  # answer columns sorted by bucket, each bucket ascending
        "starts",  # bucket offsets into columns
        "cand_bucket",  # (G,) the bucket holding guess g as an answer, -1 if none
    ],
)

# The exact tie tracking of scoring.offer, per bucket: class 0 the guesses in the bucket,
# class 1 the rest; each list keeps, in word order, the guesses within tol of the best.
TieState = namedtuple(
    "TieState",
    [
        "tol",  # (B,) the tie tolerance in score units
        "best",  # (B,) best score so far
        "thr",  # (B,) best + tol: a guess scoring above it is out
        "rec_g",  # (B, 2, records) the lists' guesses
        "rec_s",  # (B, 2, records) their scores
        "rec_n",  # (B, 2) the lists' lengths
        "overflow",  # (B,) a list was full: the caller rescores the bucket
    ],
)

# Scratch arrays, reused bucket after bucket.
Scratch = namedtuple(
    "Scratch",
    [
        "scores",  # (K + 1,) the letter groups' scores on the bucket
        "ones",  # (A,) answer weights, all 1
        "members",  # (A,) the bucket's words
        "left",  # (G,) the guesses left to score
        "lower",  # (G,) their lower bounds
        "lanes_out",  # (3, 4) partition_jit.lanes4 output
        "counts",  # (G,) uint16 pairs per guess
        "small",  # (PAIR_BLOCK,) uint8 pair counts of a block of guesses
        "picked",  # (G,) guesses whose pairs are counted (survivor pairs)
        "hist",  # (4, span) reply histograms of four guesses (partition_jit.lanes4)
    ],
)

# What scoring.score_guesses reads: a kernel called several times per bucket takes only
# the arrays it reads (numba counts a reference to each array of a tuple on every call).
Reads = namedtuple(
    "Reads",
    [
        "matrix",  # SearchData.matrix
        "matrix_t",  # SearchData.matrix_t
        "delta",  # SearchData.delta
        "columns",  # Query.columns
        "starts",  # Query.starts
        "lower",  # Scratch.lower: a lower bound on each guess's score
        "hist",  # Scratch.hist
    ],
)

# What buckets.bounded_guesses reads, once per block of guesses.
Bounds = namedtuple(
    "Bounds",
    [
        "guess_groups",  # LetterGroups.guess_groups
        "scores",  # Scratch.scores: the letter groups' scores on the bucket
        "lower",  # Scratch.lower: each guess's bound, written
        "left",  # Scratch.left: the guesses left, written
        "cand_bucket",  # Query.cand_bucket
    ],
)

OpenerContext = namedtuple(
    "OpenerContext",
    [
        "data",  # SearchData
        "groups",  # letter_groups.LetterGroups
        "work",  # letter_groups.GroupWork
        "settings",  # settings.KernelSettings
        "query",  # Query
        "ties",  # TieState
        "scratch",  # Scratch
    ],
)


@njit(cache=True, nogil=True, inline="always")
def reads_of(data, query, scratch):  # pragma: no cover - compiled
    """The Reads of a search's data, query and scratch."""
    return Reads(
        data.matrix, data.matrix_t, data.delta, query.columns, query.starts, scratch.lower,
        scratch.hist,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def tie_state(tol, records, big):  # pragma: no cover - compiled
    """Empty tie lists (a TieState) for tol.size buckets, scores of tol's type, the best
    so far `big`."""
    n_buckets = tol.size
    best = np.empty_like(tol)
    best[:] = big
    return TieState(
        tol,
        best,
        best.copy(),
        np.zeros((n_buckets, 2, records), dtype=np.int64),
        np.zeros((n_buckets, 2, records), dtype=tol.dtype),
        np.zeros((n_buckets, 2), dtype=np.int64),
        np.zeros(n_buckets, dtype=np.bool_),
    )


@njit(cache=True, nogil=True)
def scratch(n_guesses, n_answers, n_groups, span):  # pragma: no cover - compiled
    """Scratch arrays of a search over n_guesses x n_answers with n_groups letter groups
    and `span` pattern ids."""
    return Scratch(
        np.zeros(n_groups + 1, dtype=np.int64),
        np.ones(n_answers, dtype=np.float64),
        np.empty(n_answers, dtype=np.int64),
        np.empty(n_guesses, dtype=np.int64),
        np.zeros(n_guesses, dtype=np.int64),
        np.empty((3, 4), dtype=np.int64),
        np.zeros(n_guesses, dtype=np.uint16),
        np.zeros(PAIR_BLOCK, dtype=np.uint8),
        np.empty(n_guesses, dtype=np.int64),
        np.zeros((4, span), dtype=np.int64),
    )
