"""Opening guesses ranked by two-step information, with the best second guess per reply.

For an opener o the candidates split into buckets by the reply pattern o receives. For
each bucket b the best second guess is the allowed word whose reply pattern has the
highest entropy over b (candidates weighted: uniform over the answers in mode "answers",
normalised p_common over every allowed word in mode "prior"). Ties: let M be the highest
entropy over all guesses; every guess within TIE_TOLERANCE (1e-9 bits) of M is tied; a
tied word that is itself in b wins over one that is not, then the lower word_id wins.
A bucket of one word is solved by guessing it (entropy 0, second guess = that word);
the all-green bucket {o} is the game already won at guess one and is reported the same
way. Per opener, with q_b the probability of bucket b:

    h1 = -sum_b q_b log2 q_b          h2_expected = sum_b q_b H2(b)
    two_step_total = h1 + h2_expected
    expected_left_after_two = sum_b q_b E[candidates left after the second reply | b],
        where a won game (guess one or two was the answer) leaves 0 candidates, so it
        is sum_c P(c) |c| over the sub-buckets c of the second guess, minus P(solved)
    p_solved_by_two = sum over buckets whose second guess is in the bucket of the
        probability that it is the answer (this includes the all-green bucket).

Speed: naively every allowed guess is scored on every bucket, G x A pattern reads per
opener and G openers. What makes it cheap:
- Letter-group bound. A guess's reply is the tuple of the replies of its letter groups
  (a letter and the positions it holds in the guess), and a group's reply depends only
  on the candidate's greens on those positions and its copies of the letter. By
  subadditivity the reply entropy is at most the sum of the group entropies, which cost
  one small merge per group and bucket. This rules out almost all (guess, bucket) pairs
  (about 97% of the pattern reads on the real lists) before a single pattern is read.
- The guesses left are scored four at a time through small histograms, keeping the
  sum of c*log2(c) in fixed point (integer adds: exact and order independent, so equal
  partitions score equal); the sum only grows, so scoring stops once it passes the best
  score so far plus the tolerance.
- A bucket's own words are scored first. A perfect split (all replies distinct) beats
  any other by far more than the tolerance, so the first perfect candidate wins at once,
  otherwise the first perfect non-candidate in word order.
Ties are resolved exactly while streaming: per bucket and class (in the bucket or not) a
short list of record-breaking scores within the tolerance of the best so far is kept;
if it overflows, that bucket is rescored the plain way. Pruning never changes a result.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit

from pipeline.commonness import load_p_common
from pipeline.errors import InputError, PipelineError
from pipeline.files import sha256_file
from pipeline.matrix import load_pattern_matrix
from pipeline.parquet import described, read_provenance, write_parquet
from pipeline.patterns import (
    ALPHABET_SIZE,
    all_green,
    encode_words,
    feedback_matrix,
    pattern_string,
)
from pipeline.ties import TIE_TOLERANCE
from pipeline.words import load_word_index

log = logging.getLogger(__name__)

MODES = ("answers", "prior")
DEFAULT_TOP_K = 100
# Second-guess rows per Parquet row group. Rows are sorted by (mode, opener_id, pattern_id)
# and one opener has at most 3**L rows (243 for five letters), so filtering one opener
# reads one row group, two when its rows straddle a boundary (1.3M rows, 20 groups, for
# the real lists).
SECOND_GUESS_ROW_GROUP = 1 << 16
_RECORDS = 4  # capacity of each per-bucket tie list; overflow falls back to a rescore
_SCALE = float(1 << 40)  # fixed point of c*log2(c) in the count kernel
_PRIOR_BLOCK_ROWS = 512  # guess rows of the square matrix computed at a time
_MAX_HISTOGRAM = 3**15  # patterns a kernel histogram may hold (word length <= 15)
_PRIOR_CHUNK = 64  # guesses whose patterns the prior mode computes at a time
_SLOTS = 8  # letter-group slots per guess (more only for words longer than 8 letters)

OPENERS_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "answers: answer list known; prior: any word, p_common"),
        described("word_id", pa.int32(), "row of the opener in words.parquet"),
        described("word", pa.string(), "the opener"),
        described("h1", pa.float64(), "bits of information of the opener's reply"),
        described(
            "h2_expected",
            pa.float64(),
            "bits of the best second guess, averaged over replies (sum of n_b/N * H2(b))",
        ),
        described("two_step_total", pa.float64(), "h1 + h2_expected, bits"),
        described(
            "expected_left_after_two",
            pa.float64(),
            "expected candidates left after opener and recommended second guess (won = 0)",
        ),
        described("p_solved_by_two", pa.float64(), "probability the game is won by guess two"),
        described(
            "rank", pa.int32(), "1 = highest two_step_total within the mode; ties by word_id"
        ),
        described("n_buckets", pa.int32(), "distinct replies the opener can get"),
    ]
)

SECOND_GUESS_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "answers or prior, as in openers.parquet"),
        described("opener", pa.string(), "the first guess"),
        described("opener_id", pa.int32(), "word_id of the first guess"),
        described("pattern_id", pa.int32(), "reply to the opener (sum of c_i * 3^i)"),
        described("pattern", pa.string(), "the reply as B/Y/G letters, position 0 first"),
        described("bucket_size", pa.int32(), "candidates that give this reply"),
        described("bucket_probability", pa.float64(), "probability of this reply"),
        described("second_guess", pa.string(), "recommended second guess for this reply"),
        described("second_guess_id", pa.int32(), "word_id of the second guess"),
        described("second_entropy", pa.float64(), "bits the second guess gives within the bucket"),
        described("second_is_candidate", pa.bool_(), "the second guess could be the answer"),
    ]
)

# A part file holds second-guess rows with the opener's figures repeated on each row.
_OPENER_FIGURES = [
    field for field in OPENERS_SCHEMA if field.name not in ("mode", "word_id", "word", "rank")
]
PART_SCHEMA = pa.schema(list(SECOND_GUESS_SCHEMA) + _OPENER_FIGURES)


@dataclass(frozen=True)
class SecondGuesses:
    """Buckets of one opener (ascending pattern id) and the best second guess for each."""

    opener: int
    pattern_ids: np.ndarray  # int64
    sizes: np.ndarray  # int64, words in the bucket
    probabilities: np.ndarray  # float64, chance the answer is in the bucket
    second_ids: np.ndarray  # int64 word_id of the best second guess
    second_entropies: np.ndarray  # float64 bits over the bucket
    second_is_candidate: np.ndarray  # bool, second guess lies in the bucket
    expected_left: np.ndarray  # float64, candidates left after the second reply | bucket
    solve_probabilities: np.ndarray  # float64, chance the second guess is the answer | bucket


@dataclass(frozen=True)
class OpenerFigures:
    """Per-opener summary of SecondGuesses (see the module docstring)."""

    h1: float
    h2_expected: float
    two_step_total: float
    expected_left_after_two: float
    p_solved_by_two: float
    n_buckets: int


def opener_figures(result: SecondGuesses) -> OpenerFigures:
    """h1, expected second entropy, their total, expected candidates left, P(won by two)."""
    q = result.probabilities
    h1 = float(-np.sum(q * np.log2(q)))
    h2 = float(np.sum(q * result.second_entropies))
    return OpenerFigures(
        h1=h1,
        h2_expected=h2,
        two_step_total=h1 + h2,
        expected_left_after_two=float(np.sum(q * result.expected_left)),
        p_solved_by_two=float(np.sum(q * result.solve_probabilities)),
        n_buckets=len(q),
    )


# --------------------------------------------------------------------------- kernels
# Guesses are scored four at a time (lanes), each lane with its own histogram row: four
# independent dependency chains keep the core busy where one chain would stall on the
# store-to-load round trip of a repeated reply pattern.


@njit(cache=True, nogil=True)
def _count_score(row, columns, lo, hi, hist, base, delta, limit):  # pragma: no cover
    """Fixed-point sum of c*log2(c) over the reply counts of `row` on columns[lo:hi].

    hist holds base + count; every call gets a base above all entries written before
    (they are at most the previous base + the bucket size), so no reset is needed. The
    sum only grows, so scoring stops once it exceeds `limit` (the result is then > limit).
    """
    total = 0
    for k in range(lo, hi):
        p = row[columns[k]]
        c = max(hist[p] - base, 0)
        total += delta[c]
        hist[p] = base + c + 1
        if total > limit:
            break
    return total


@njit(cache=True, nogil=True)
def _weight_score(row, columns, weights, lo, hi, hist):  # pragma: no cover - compiled
    """(sum W log2 W over reply groups, number of groups); weights[k] belongs to columns[k].

    hist must be zero and is left zero. Groups are summed in order of their first member,
    so equal partitions of the same words give bit-identical sums.
    """
    for k in range(lo, hi):
        hist[row[columns[k]]] += weights[k]
    total = 0.0
    groups = 0
    for k in range(lo, hi):
        p = row[columns[k]]
        value = hist[p]
        if value != 0.0:
            total += value * np.log2(value)
            groups += 1
            hist[p] = 0.0
    return total, groups


@njit(cache=True, nogil=True)
def _offer(b, g, s, in_bucket, tol, best, thr, rec_g, rec_s, rec_n, overflow):  # pragma: no cover
    """Feed score s (lower is better) of guess g on bucket b into the exact tie tracking.

    Lists (class 0: guesses in the bucket, 1: the rest) keep, in arrival (= word) order,
    the guesses that beat every earlier guess of their class and lie within tol of the
    best score of all; the winner is the head of list 0, else the head of list 1.
    """
    if s < best[b]:
        best[b] = s
        thr[b] = s + tol[b]
        for cls in range(2):
            n = rec_n[b, cls]
            drop = 0
            while drop < n and rec_s[b, cls, drop] > thr[b]:
                drop += 1
            if drop:
                for i in range(n - drop):
                    rec_g[b, cls, i] = rec_g[b, cls, i + drop]
                    rec_s[b, cls, i] = rec_s[b, cls, i + drop]
                rec_n[b, cls] = n - drop
    if s <= thr[b]:
        cls = 0 if in_bucket else 1
        n = rec_n[b, cls]
        if n == 0 or s < rec_s[b, cls, n - 1]:
            if n == rec_g.shape[2]:
                overflow[b] = True
            else:
                rec_g[b, cls, n] = g
                rec_s[b, cls, n] = s
                rec_n[b, cls] = n + 1


@njit(cache=True, nogil=True)
def _group_work(n_cells):  # pragma: no cover - compiled
    """Scratch arrays of the letter-group tallies (cells, cell lists, keys)."""
    return (
        np.zeros((ALPHABET_SIZE, n_cells), dtype=np.float64),
        np.zeros((ALPHABET_SIZE, n_cells), dtype=np.int64),
        np.zeros(ALPHABET_SIZE, dtype=np.int64),
        np.zeros(ALPHABET_SIZE, dtype=np.int64),
        np.zeros(n_cells, dtype=np.float64),
        np.zeros(n_cells, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _tally_cells(
    columns, lo, hi, weights, cand_letters, cand_cells, cells, cell_list, cell_n, present
):  # pragma: no cover - compiled
    """Letter-group groundwork for columns[lo:hi]: per letter, the candidate mass in each
    cell (positions of the letter as bits, copies of it) and the number holding it."""
    for j in range(lo, hi):
        a = columns[j]
        w = weights[j]
        for i in range(cand_letters.shape[1]):
            x = cand_letters[a, i]
            if x < 0:
                break
            cell = cand_cells[a, i]
            if cells[x, cell] == 0.0:
                cell_list[x, cell_n[x]] = cell
                cell_n[x] += 1
            cells[x, cell] += w
            present[x] += 1


@njit(cache=True, nogil=True)
def _group_keys(
    x, mask, size, popcount, width, cells, cell_list, cell_n, key_mass, key_list
):  # pragma: no cover - compiled
    """Merge letter x's cells into the replies of group (x, mask): fills key_mass at the
    keys listed in key_list and returns how many (the absent reply is left out).

    The reply on the group's positions I is fixed by the greens on I and by how many
    other positions of I turn yellow: min(copies - greens, |I| - greens).
    """
    n_keys = 0
    for i in range(cell_n[x]):
        cell = cell_list[x, i]
        green = (cell // width) & mask
        n_green = popcount[green]
        key = green * width + min(cell % width - n_green, size - n_green)
        if key_mass[key] == 0.0:
            key_list[n_keys] = key
            n_keys += 1
        key_mass[key] += cells[x, cell]
    return n_keys


@njit(cache=True, nogil=True)
def _clear_cells(cells, cell_list, cell_n, present):  # pragma: no cover - compiled
    """Zero what _tally_cells filled."""
    for x in range(cell_n.size):
        for i in range(cell_n[x]):
            cells[x, cell_list[x, i]] = 0.0
        cell_n[x] = 0
        present[x] = 0


@njit(cache=True, nogil=True)
def _group_counts(
    columns,
    lo,
    hi,
    ones,
    group_letter,
    group_mask,
    group_size,
    cand_letters,
    cand_cells,
    popcount,
    width,
    work,
    values,
    out,
):  # pragma: no cover - compiled
    """Fixed-point sum of c*log2(c) over the replies of every letter group (see
    _LetterGroups) on columns[lo:hi], all candidates weighing 1."""
    cells, cell_list, cell_n, present, key_mass, key_list = work
    _tally_cells(columns, lo, hi, ones, cand_letters, cand_cells, cells, cell_list, cell_n, present)
    n = hi - lo
    for k in range(group_letter.size):
        x = group_letter[k]
        n_keys = _group_keys(
            x, group_mask[k], group_size[k], popcount, width, cells, cell_list, cell_n,
            key_mass, key_list,
        )  # fmt: skip
        score = values[n - present[x]]
        for i in range(n_keys):
            score += values[int(key_mass[key_list[i]])]
            key_mass[key_list[i]] = 0.0
        out[k] = score
    _clear_cells(cells, cell_list, cell_n, present)


@njit(cache=True, nogil=True)
def _group_weights(
    columns,
    lo,
    hi,
    weights,
    group_letter,
    group_mask,
    group_size,
    cand_letters,
    cand_cells,
    popcount,
    width,
    work,
    out,
):  # pragma: no cover - compiled
    """sum over replies of W*log2(W) (W: reply weight) for every letter group on
    columns[lo:hi]; weights[j] belongs to columns[j]."""
    cells, cell_list, cell_n, present, key_mass, key_list = work
    _tally_cells(
        columns, lo, hi, weights, cand_letters, cand_cells, cells, cell_list, cell_n, present
    )
    n = hi - lo
    total = 0.0
    for j in range(lo, hi):
        total += weights[j]
    for k in range(group_letter.size):
        x = group_letter[k]
        n_keys = _group_keys(
            x, group_mask[k], group_size[k], popcount, width, cells, cell_list, cell_n,
            key_mass, key_list,
        )  # fmt: skip
        score = 0.0
        absent = total
        for i in range(n_keys):
            mass = key_mass[key_list[i]]
            score += mass * np.log2(mass)
            absent -= mass
            key_mass[key_list[i]] = 0.0
        if present[x] < n and absent > 0.0:
            score += absent * np.log2(absent)
        out[k] = score
    _clear_cells(cells, cell_list, cell_n, present)


@njit(cache=True, nogil=True)
def _group_bound(guess_groups, g, group_scores, offset):  # pragma: no cover - compiled
    """Lower bound on guess g's score from its letter groups' scores (see _solve_counts)."""
    total = -offset
    for j in range(guess_groups.shape[1]):
        total += group_scores[guess_groups[g, j]]
    return total


@njit(cache=True, nogil=True)
def _solve_counts(
    matrix,
    answer_rows,
    columns,
    starts,
    cand_bucket,
    delta,
    values,
    tol,
    records,
    span,
    use_bound,
    guess_groups,
    group_letter,
    group_mask,
    group_size,
    cand_letters,
    cand_cells,
    popcount,
):  # pragma: no cover - compiled
    """Best second guess per bucket of one opener, answers uniform (count kernel).

    columns: answer columns sorted by bucket; starts: bucket offsets into columns;
    cand_bucket[g]: the bucket holding guess g, -1 if g is not an answer; values[c]: the
    fixed-point c*log2(c).
    With use_bound, a guess is skipped on a bucket when the letter-group bound already
    puts its score above the limit (see _LetterGroups). Buckets are solved one after the
    other; on each, the surviving guesses are scored four at a time in word order.
    Returns (winner word_id, winner in bucket, overflowed) per bucket.
    """
    n_buckets = starts.size - 1
    n_guesses = matrix.shape[0]
    big = np.iinfo(np.int64).max
    best = np.full(n_buckets, big, dtype=np.int64)
    thr = np.full(n_buckets, big, dtype=np.int64)
    rec_g = np.zeros((n_buckets, 2, records), dtype=np.int64)
    rec_s = np.zeros((n_buckets, 2, records), dtype=np.int64)
    rec_n = np.zeros((n_buckets, 2), dtype=np.int64)
    overflow = np.zeros(n_buckets, dtype=np.bool_)
    resolved = np.zeros(n_buckets, dtype=np.bool_)
    hist = np.zeros((4, span), dtype=np.int64)
    width = cand_letters.shape[1] + 1
    work = _group_work(popcount.size * width)
    ones = np.ones(columns.size, dtype=np.float64)
    group_scores = np.zeros(group_letter.size + 1, dtype=np.int64)
    slots = guess_groups.shape[1]
    left = np.empty(n_guesses, dtype=np.int64)
    no_bound = np.zeros(n_guesses, dtype=np.int64)
    base = 0
    step = columns.size + 1  # base moves past every count a bucket can reach
    lane_g = np.zeros(4, dtype=np.int64)
    for b in range(n_buckets):
        lo = starts[b]
        hi = starts[b + 1]
        n = hi - lo
        if n < 2:
            resolved[b] = True
            continue
        # Letter-group bound: a guess's reply entropy is at most the sum of its letter
        # groups' (subadditivity); unused slots point at a last "no information" group
        # whose score is n log2 n, so score >= sum over slots - (slots - 1) n log2 n,
        # less an allowance for the rounding of the fixed-point values.
        offset = 0
        if use_bound:
            group_scores[group_letter.size] = values[n]
            _group_counts(
                columns, lo, hi, ones, group_letter, group_mask, group_size, cand_letters,
                cand_cells, popcount, width, work, values, group_scores,
            )  # fmt: skip
            offset = (slots - 1) * values[n] + 16 * (slots + 1) * (n + 1)
        # The bucket's own words first: the first perfect one (score 0) wins outright.
        for k in range(lo, hi):
            g = answer_rows[columns[k]]
            if use_bound and _group_bound(guess_groups, g, group_scores, offset) > thr[b]:
                continue
            base += step
            s = _count_score(matrix[g], columns, lo, hi, hist[0], base, delta, thr[b])
            if s <= thr[b]:
                _offer(b, g, s, True, tol, best, thr, rec_g, rec_s, rec_n, overflow)
        if best[b] == 0:
            resolved[b] = True
            continue
        # The rest, in word order, four at a time, skipping what the bound rules out.
        lower = _group_bounds(guess_groups, group_scores, offset) if use_bound else no_bound
        n_left = 0
        for g in range(n_guesses):
            left[n_left] = g
            n_left += (lower[g] <= thr[b]) & (cand_bucket[g] != b)
        i = 0
        while i < n_left and not resolved[b]:
            limit = thr[b]
            lanes = 0
            while i < n_left and lanes < 4:
                g = left[i]
                if lower[g] <= limit:
                    lane_g[lanes] = g
                    lanes += 1
                i += 1
            if lanes == 0:
                break
            for j in range(lanes, 4):
                lane_g[j] = lane_g[0]
            r0 = matrix[lane_g[0]]
            r1 = matrix[lane_g[1]]
            r2 = matrix[lane_g[2]]
            r3 = matrix[lane_g[3]]
            base += step
            s0 = 0
            s1 = 0
            s2 = 0
            s3 = 0
            # Written out: as a called helper this loop runs about half as fast.
            for k in range(lo, hi):
                a = columns[k]
                p0 = r0[a]
                p1 = r1[a]
                p2 = r2[a]
                p3 = r3[a]
                c0 = max(hist[0, p0] - base, 0)
                c1 = max(hist[1, p1] - base, 0)
                c2 = max(hist[2, p2] - base, 0)
                c3 = max(hist[3, p3] - base, 0)
                s0 += delta[c0]
                s1 += delta[c1]
                s2 += delta[c2]
                s3 += delta[c3]
                hist[0, p0] = base + c0 + 1
                hist[1, p1] = base + c1 + 1
                hist[2, p2] = base + c2 + 1
                hist[3, p3] = base + c3 + 1
                if s0 > limit and s1 > limit and s2 > limit and s3 > limit:
                    break
            for lane in range(lanes):
                s = s0 if lane == 0 else s1 if lane == 1 else s2 if lane == 2 else s3
                if s <= thr[b]:
                    _offer(b, lane_g[lane], s, False, tol, best, thr, rec_g, rec_s, rec_n, overflow)
                    if s == 0:
                        resolved[b] = True  # the first perfect split of the rest wins
                        break
    winners = np.empty(n_buckets, dtype=np.int64)
    in_bucket = np.empty(n_buckets, dtype=np.bool_)
    for b in range(n_buckets):
        if starts[b + 1] - starts[b] == 1:
            winners[b] = answer_rows[columns[starts[b]]]
            in_bucket[b] = True
        elif rec_n[b, 0] > 0:
            winners[b] = rec_g[b, 0, 0]
            in_bucket[b] = True
        else:
            winners[b] = rec_g[b, 1, 0]
            in_bucket[b] = False
    return winners, in_bucket, overflow


@njit(cache=True, nogil=True)
def _group_bounds(guess_groups, group_scores, offset):  # pragma: no cover - compiled
    """_group_bound for every guess at once."""
    out = np.empty(guess_groups.shape[0], dtype=group_scores.dtype)
    slots = guess_groups.shape[1]
    for g in range(guess_groups.shape[0]):
        total = -offset
        if slots == _SLOTS:  # a constant trip count: the compiler unrolls it
            for j in range(_SLOTS):
                total += group_scores[guess_groups[g, j]]
        else:
            for j in range(slots):
                total += group_scores[guess_groups[g, j]]
        out[g] = total
    return out


@njit(cache=True, nogil=True)
def _offer_rows(
    ids,
    sub,
    weights,
    in_bucket,
    can_resolve,
    hist,
    tol,
    best,
    thr,
    rec_g,
    rec_s,
    rec_n,
    overflow,
):  # pragma: no cover - compiled
    """Score rows of `sub` (guesses ids x bucket words, weighted) on bucket 0 of the state
    and offer them in order. Returns (any perfect split, stopped early): with can_resolve
    a perfect split by a word outside the bucket is the winner, so scoring stops there."""
    n = sub.shape[1]
    columns = np.arange(n)
    perfect = False
    for i in range(ids.size):
        s, groups = _weight_score(sub[i], columns, weights, 0, n, hist)
        if s <= thr[0]:
            _offer(0, ids[i], s, in_bucket, tol, best, thr, rec_g, rec_s, rec_n, overflow)
        if groups == n:
            perfect = True
            if can_resolve and not in_bucket:
                return perfect, True
    return perfect, False


@njit(cache=True, nogil=True)
def _summaries(rows, row_of_bucket, columns, weights, starts, span):  # pragma: no cover
    """Per bucket, for its second guess (row rows[row_of_bucket[b]] over all columns):
    (entropy in bits, sum over reply groups of weight * size)."""
    n_buckets = starts.size - 1
    hist_w = np.zeros(span, dtype=np.float64)
    hist_n = np.zeros(span, dtype=np.int64)
    entropy = np.empty(n_buckets, dtype=np.float64)
    weight_size = np.empty(n_buckets, dtype=np.float64)
    for b in range(n_buckets):
        lo = starts[b]
        hi = starts[b + 1]
        row = rows[row_of_bucket[b]]
        total = 0.0
        for k in range(lo, hi):
            p = row[columns[k]]
            hist_w[p] += weights[k]
            hist_n[p] += 1
            total += weights[k]
        s = 0.0
        ws = 0.0
        for k in range(lo, hi):
            p = row[columns[k]]
            value = hist_w[p]
            if hist_n[p] != 0:
                if value > 0.0:
                    s += value * np.log2(value)
                ws += value * hist_n[p]
                hist_w[p] = 0.0
                hist_n[p] = 0
        entropy[b] = max(np.log2(total) - s / total, 0.0) if hi - lo > 1 else 0.0
        weight_size[b] = ws
    return entropy, weight_size


# --------------------------------------------------------------------------- helpers


def _span(length: int) -> int:
    """Histogram size for every pattern id of this word length."""
    span = all_green(length) + 1
    if span > _MAX_HISTOGRAM:
        raise PipelineError(f"words of {length} letters have too many patterns for the kernels")
    return span


def _matrix_span(matrix: np.ndarray) -> int:
    """Histogram size for a pattern matrix: its dtype's range, or its largest id + 1."""
    if matrix.dtype.itemsize <= 2:
        return int(np.iinfo(matrix.dtype).max) + 1
    span = int(matrix.max()) + 1
    if span > _MAX_HISTOGRAM:
        raise PipelineError(f"pattern ids up to {span - 1} are too many for the kernels")
    return span


def _bucket_layout(row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(columns sorted by pattern then column, bucket start offsets, pattern id per bucket)."""
    columns = np.argsort(row, kind="stable").astype(np.int64)
    ordered = row[columns]
    edges = np.flatnonzero(np.diff(ordered.astype(np.int64))) + 1
    starts = np.concatenate(([0], edges, [len(row)])).astype(np.int64)
    return columns, starts, ordered[starts[:-1]].astype(np.int64)


def _count_tables(n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """(delta, F) with F(c) = round(c log2 c * 2**40) for c = 0..n_max + 1 and
    delta[c] = F(c + 1) - F(c): sums of F over counts are exact integers."""
    c = np.arange(n_max + 2, dtype=np.float64)
    f = np.zeros_like(c)
    f[2:] = c[2:] * np.log2(c[2:])
    values = np.rint(f * _SCALE).astype(np.int64)
    return np.diff(values), values


@dataclass(frozen=True)
class _LetterGroups:
    """Letter groups of every guess, and per candidate word the facts that fix their replies.

    A guess's reply is the tuple of its letter groups' replies (letter x at positions I),
    so its entropy over any bucket is at most the sum of the groups' entropies
    (subadditivity). Group entropies cost one pass per bucket and group; the bound then
    rules most guesses out of a bucket without scoring them. This uses the Wordle rules
    of pipeline.patterns: a group's reply depends only on the candidate's greens on I
    and on how many copies of x it holds.
    """

    guess_groups: np.ndarray  # (G, max(L, 8)) uint group ids, padded with K (no group)
    group_count: np.ndarray  # (G,) distinct letters of each guess
    group_letter: np.ndarray  # (K,)
    group_mask: np.ndarray  # (K,) bit i set: the letter is at position i
    group_size: np.ndarray  # (K,) positions in the group
    cand_letters: np.ndarray  # (C, L) distinct letters of each candidate, -1 padded
    cand_cells: np.ndarray  # (C, L) their cells: position bits * (L + 1) + copies
    popcount: np.ndarray  # (2**L,)


def _letter_groups(guesses: np.ndarray, candidates: np.ndarray) -> _LetterGroups:
    """Build _LetterGroups from encoded guesses (G, L) and candidates (C, L)."""
    n_guesses, length = guesses.shape
    guess_groups = np.full((n_guesses, max(length, _SLOTS)), -1, dtype=np.int64)
    group_count = np.zeros(n_guesses, dtype=np.int64)
    ids: dict[tuple[int, int], int] = {}
    for g, word in enumerate(guesses.tolist()):
        for x in sorted(set(word)):
            mask = sum(1 << i for i, letter in enumerate(word) if letter == x)
            guess_groups[g, group_count[g]] = ids.setdefault((x, mask), len(ids))
            group_count[g] += 1
    keys = np.array(list(ids), dtype=np.int64).reshape(-1, 2)
    guess_groups[guess_groups < 0] = len(keys)
    guess_groups = guess_groups.astype(np.uint64)  # unsigned: no negative-index handling
    cand_letters = np.full(candidates.shape, -1, dtype=np.int64)
    cand_cells = np.zeros(candidates.shape, dtype=np.int64)
    for c, word in enumerate(candidates.tolist()):
        for j, x in enumerate(sorted(set(word))):
            cand_letters[c, j] = x
            bits = sum(1 << i for i, letter in enumerate(word) if letter == x)
            cand_cells[c, j] = bits * (length + 1) + word.count(x)
    popcount = np.array([bin(v).count("1") for v in range(1 << length)], dtype=np.int64)
    return _LetterGroups(
        guess_groups=guess_groups,
        group_count=group_count,
        group_letter=keys[:, 0].copy(),
        group_mask=keys[:, 1].copy(),
        group_size=popcount[keys[:, 1]],
        cand_letters=cand_letters,
        cand_cells=cand_cells,
        popcount=popcount,
    )


def _entropies_numpy(sub: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Entropy (bits) of every row's replies over the columns of `sub`, columns weighted."""
    n_rows, n_cols = sub.shape
    span = int(sub.max()) + 1
    index = (np.arange(n_rows, dtype=np.int64)[:, None] * span + sub).ravel()
    mass = np.bincount(index, weights=np.tile(weights, n_rows), minlength=n_rows * span)
    mass = mass.reshape(n_rows, span)
    total = float(weights.sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(mass > 0, mass * np.log2(mass), 0.0)
    return np.log2(total) - terms.sum(axis=1) / total


def _choose(entropies: np.ndarray, members: np.ndarray) -> tuple[int, bool]:
    """The tie rule on a full score vector: within TIE_TOLERANCE of the best, a member
    of the bucket first, then the lowest word_id."""
    tied = entropies >= entropies.max() - TIE_TOLERANCE
    in_bucket = np.zeros(len(entropies), dtype=bool)
    in_bucket[members] = True
    hits = np.flatnonzero(tied & in_bucket)
    if hits.size:
        return int(hits[0]), True
    return int(np.flatnonzero(tied)[0]), False


def _result(
    opener: int,
    patterns: np.ndarray,
    starts: np.ndarray,
    member_weights: np.ndarray,
    total_weight: float,
    second_ids: np.ndarray,
    second_entropies: np.ndarray,
    in_bucket: np.ndarray,
    weight_size: np.ndarray,
    weight_of: np.ndarray,
) -> SecondGuesses:
    """Assemble SecondGuesses from per-bucket arrays (weight_of: weight of each word_id)."""
    sizes = np.diff(starts)
    bucket_weight = np.add.reduceat(member_weights, starts[:-1])
    solved = np.where(in_bucket, weight_of[second_ids] / bucket_weight, 0.0)
    return SecondGuesses(
        opener=opener,
        pattern_ids=patterns.astype(np.int64),
        sizes=sizes.astype(np.int64),
        probabilities=bucket_weight / total_weight,
        second_ids=second_ids.astype(np.int64),
        second_entropies=second_entropies,
        second_is_candidate=in_bucket.astype(bool),
        expected_left=weight_size / bucket_weight - solved,
        solve_probabilities=solved,
    )


def _check_opener(matrix: np.ndarray, answer_rows: np.ndarray, opener: int) -> None:
    if matrix.ndim != 2 or matrix.shape[1] != len(answer_rows):
        raise PipelineError(
            f"matrix of shape {matrix.shape} does not match {len(answer_rows)} answers"
        )
    if not 0 <= opener < matrix.shape[0]:
        raise PipelineError(f"opener {opener} is outside [0, {matrix.shape[0]})")


# --------------------------------------------------------------------------- answers mode


class AnswerSolver:
    """Answers-mode second guesses for any opener of one matrix (set-up paid once).

    words: every allowed word in word_id order (the matrix rows); a sample of rows is
    recomputed from them to make sure the matrix really belongs to these words.
    use_bound=False turns off the letter-group pruning (for tests; same results).
    """

    def __init__(
        self,
        matrix: np.ndarray,
        answer_rows: np.ndarray,
        words: Sequence[str],
        *,
        use_bound: bool = True,
    ) -> None:
        matrix = np.ascontiguousarray(matrix)
        answer_rows = np.asarray(answer_rows, dtype=np.int64)
        if matrix.ndim != 2 or matrix.shape[1] != len(answer_rows) or matrix.shape[0] == 0:
            raise PipelineError(
                f"matrix of shape {matrix.shape} does not match {len(answer_rows)} answers"
            )
        if len(words) != matrix.shape[0]:
            raise PipelineError(f"{len(words)} words for a matrix of {matrix.shape[0]} rows")
        encoded = encode_words(words)
        sample = np.unique(np.linspace(0, len(words) - 1, 16).astype(np.int64))
        if not np.array_equal(
            feedback_matrix(encoded[sample], encoded[answer_rows]), matrix[sample]
        ):
            raise PipelineError("the pattern matrix does not match the words; rebuild it")
        self.matrix = matrix
        self.answer_rows = answer_rows
        self.use_bound = use_bound
        self.groups = _letter_groups(encoded, encoded[answer_rows])
        self.delta, self.values = _count_tables(matrix.shape[1])
        self.span = _matrix_span(matrix)
        self.weight_of = np.zeros(matrix.shape[0], dtype=np.float64)
        self.weight_of[answer_rows] = 1.0

    def solve(self, opener: int, *, records: int = _RECORDS) -> SecondGuesses:
        """Best second guess per bucket of `opener` (see second_guesses)."""
        matrix = self.matrix
        _check_opener(matrix, self.answer_rows, opener)
        columns, starts, patterns = _bucket_layout(matrix[opener])
        sizes = np.diff(starts)
        n_buckets = len(sizes)
        cand_bucket = np.full(matrix.shape[0], -1, dtype=np.int64)
        cand_bucket[self.answer_rows[columns]] = np.repeat(np.arange(n_buckets), sizes)
        tol = np.floor(TIE_TOLERANCE * sizes * _SCALE).astype(np.int64)
        groups = self.groups
        winners, in_bucket, overflow = _solve_counts(
            matrix, self.answer_rows, columns, starts, cand_bucket, self.delta, self.values,
            tol, records, self.span, self.use_bound, groups.guess_groups, groups.group_letter,
            groups.group_mask, groups.group_size, groups.cand_letters, groups.cand_cells,
            groups.popcount,
        )  # fmt: skip
        ones = np.ones(len(columns), dtype=np.float64)
        for b in np.flatnonzero(overflow):
            members = columns[starts[b] : starts[b + 1]]
            scores = _entropies_numpy(matrix[:, members], ones[: len(members)])
            winners[b], in_bucket[b] = _choose(scores, self.answer_rows[members])
        entropies, weight_size = _summaries(matrix, winners, columns, ones, starts, self.span)
        return _result(
            opener,
            patterns,
            starts,
            ones,
            float(len(columns)),
            winners,
            entropies,
            in_bucket,
            weight_size,
            self.weight_of,
        )


def second_guesses(
    matrix: np.ndarray,
    answer_rows: np.ndarray,
    words: Sequence[str],
    opener: int,
    *,
    records: int = _RECORDS,
) -> SecondGuesses:
    """Best second guess per bucket of `opener`, answers uniform: the numba kernel.

    matrix: (G, A) patterns, rows guesses, columns answers; answer_rows: word_id of each
    column; words: all allowed words in word_id order. `records` sizes the tie lists
    (tests shrink it to force the exact fallback). For many openers build one
    AnswerSolver instead.
    """
    return AnswerSolver(matrix, answer_rows, words).solve(opener, records=records)


def second_guesses_numpy(matrix: np.ndarray, answer_rows: np.ndarray, opener: int) -> SecondGuesses:
    """The same result as second_guesses, bucket by bucket in plain numpy (the baseline)."""
    _check_opener(matrix, answer_rows, opener)
    answer_rows = np.asarray(answer_rows, dtype=np.int64)
    row = matrix[opener].astype(np.int64)
    n_answers = len(row)
    patterns = np.unique(row)
    fields: dict[str, list] = {key: [] for key in ("size", "id", "h", "cand", "left", "solve")}
    for pattern in patterns:
        members = np.flatnonzero(row == pattern)
        n = len(members)
        if n == 1:
            second, entropy, cand = int(answer_rows[members[0]]), 0.0, True
        else:
            scores = _entropies_numpy(matrix[:, members], np.ones(n))
            second, cand = _choose(scores, answer_rows[members])
            entropy = float(scores[second])
        replies = np.unique(matrix[second, members], return_counts=True)[1]
        fields["size"].append(n)
        fields["id"].append(second)
        fields["h"].append(max(entropy, 0.0))
        fields["cand"].append(cand)
        fields["solve"].append(1.0 / n if cand else 0.0)
        fields["left"].append(float(np.sum(replies**2)) / n - (1.0 / n if cand else 0.0))
    sizes = np.array(fields["size"], dtype=np.int64)
    return SecondGuesses(
        opener=opener,
        pattern_ids=patterns,
        sizes=sizes,
        probabilities=sizes / n_answers,
        second_ids=np.array(fields["id"], dtype=np.int64),
        second_entropies=np.array(fields["h"], dtype=np.float64),
        second_is_candidate=np.array(fields["cand"], dtype=bool),
        expected_left=np.array(fields["left"], dtype=np.float64),
        solve_probabilities=np.array(fields["solve"], dtype=np.float64),
    )


# --------------------------------------------------------------------------- prior mode


@njit(cache=True, nogil=True)
def _weighted_row_entropies(block, weights, span):  # pragma: no cover - compiled
    """Entropy (bits) of each row's replies over all columns, columns weighted."""
    columns = np.arange(block.shape[1])
    hist = np.zeros(span, dtype=np.float64)
    total = weights.sum()
    out = np.empty(block.shape[0], dtype=np.float64)
    for j in range(block.shape[0]):
        s, _ = _weight_score(block[j], columns, weights, 0, block.shape[1], hist)
        out[j] = np.log2(total) - s / total
    return out


def prior_entropies(encoded: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """entropy_prior of every word as opener: every allowed word a candidate, weighted.

    The guess x guess patterns are computed block by block, never the whole square.
    """
    n = len(encoded)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    span = _span(encoded.shape[1])
    out = np.empty(n, dtype=np.float64)
    for start in range(0, n, _PRIOR_BLOCK_ROWS):
        stop = min(start + _PRIOR_BLOCK_ROWS, n)
        block = feedback_matrix(encoded[start:stop], encoded)
        out[start:stop] = _weighted_row_entropies(block, weights, span)
    return out


def top_openers(entropies: np.ndarray, top_k: int) -> np.ndarray:
    """word_ids of the top_k highest entropies, ties by word_id."""
    if top_k < 1:
        raise PipelineError(f"top_k must be at least 1, got {top_k}")
    order = np.lexsort((np.arange(len(entropies)), -entropies))
    return order[: min(top_k, len(entropies))].astype(np.int64)


def _prior_bucket(
    encoded: np.ndarray,
    groups: _LetterGroups,
    ids: np.ndarray,
    weights: np.ndarray,
    records: int,
) -> tuple[int, bool]:
    """(best second guess, whether it is in the bucket) for the bucket of words `ids`,
    every word weighted by `weights` (aligned with ids). Patterns are computed only for
    the guesses that the letter-group bound leaves in the running, a chunk at a time."""
    n = len(ids)
    total = float(weights.sum())
    n_groups = len(groups.group_letter)
    whole = total * np.log2(total)
    scores = np.empty(n_groups + 1, dtype=np.float64)
    scores[n_groups] = whole
    _group_weights(
        ids, 0, n, weights, groups.group_letter, groups.group_mask, groups.group_size,
        groups.cand_letters, groups.cand_cells, groups.popcount, encoded.shape[1] + 1,
        _group_work(len(groups.popcount) * (encoded.shape[1] + 1)), scores,
    )  # fmt: skip
    slots = groups.guess_groups.shape[1]
    margin = 1e-9 * total * (slots + 1) * (2.0 + abs(np.log2(total)) + np.log2(n))
    lower = _group_bounds(groups.guess_groups, scores, (slots - 1) * whole + margin)
    tol = np.array([TIE_TOLERANCE * total])
    best = np.full(1, np.inf)
    thr = np.full(1, np.inf)
    rec_g = np.zeros((1, 2, records), dtype=np.int64)
    rec_s = np.zeros((1, 2, records), dtype=np.float64)
    rec_n = np.zeros((1, 2), dtype=np.int64)
    overflow = np.zeros(1, dtype=bool)
    state = (tol, best, thr, rec_g, rec_s, rec_n, overflow)
    hist = np.zeros(_span(encoded.shape[1]), dtype=np.float64)
    # A perfect split beats every other split by at least the cost of merging the two
    # lightest words; when that exceeds the tolerance, the first perfect split wins.
    light = np.sort(weights)[:2]
    gap = light.sum() * np.log2(light.sum()) - np.sum(light * np.log2(light))
    can_resolve = bool(gap > 2 * tol[0] + 4 * margin)
    targets = encoded[ids]
    perfect = False
    for start in range(0, n, _PRIOR_CHUNK):
        chunk = ids[start : start + _PRIOR_CHUNK]
        chunk = chunk[lower[chunk] <= thr[0]]
        if chunk.size:
            sub = feedback_matrix(encoded[chunk], targets)
            found, _ = _offer_rows(chunk, sub, weights, True, can_resolve, hist, *state)
            perfect = perfect or found
    if not (perfect and can_resolve):
        outside = lower <= thr[0]
        outside[ids] = False
        rest = np.flatnonzero(outside)
        for start in range(0, len(rest), _PRIOR_CHUNK):
            chunk = rest[start : start + _PRIOR_CHUNK]
            chunk = chunk[lower[chunk] <= thr[0]]
            if chunk.size:
                sub = feedback_matrix(encoded[chunk], targets)
                _, stop = _offer_rows(chunk, sub, weights, False, can_resolve, hist, *state)
                if stop:
                    break
    if overflow[0]:
        return _choose(_entropies_numpy(feedback_matrix(encoded, targets), weights), ids)
    if rec_n[0, 0] > 0:
        return int(rec_g[0, 0, 0]), True
    return int(rec_g[0, 1, 0]), False


def prior_second_guesses(
    encoded: np.ndarray,
    weights: np.ndarray,
    openers: Sequence[int],
    *,
    records: int = _RECORDS,
) -> list[SecondGuesses]:
    """Best second guesses of each opener when every allowed word is a candidate, weighted
    by `weights` (normalised per bucket). No guess x guess matrix is ever stored: patterns
    are computed for the opener rows and for the guesses still in the running."""
    encoded = np.ascontiguousarray(encoded, dtype=np.uint8)
    weights = np.asarray(weights, dtype=np.float64)
    groups = _letter_groups(encoded, encoded)
    span = _span(encoded.shape[1])
    results = []
    for opener in openers:
        columns, starts, patterns = _bucket_layout(feedback_matrix(encoded[[opener]], encoded)[0])
        n_buckets = len(starts) - 1
        winners = np.empty(n_buckets, dtype=np.int64)
        in_bucket = np.ones(n_buckets, dtype=bool)
        for b in range(n_buckets):
            ids = columns[starts[b] : starts[b + 1]]
            if len(ids) == 1:
                winners[b] = ids[0]
            else:
                winners[b], in_bucket[b] = _prior_bucket(
                    encoded, groups, ids, weights[ids], records
                )
        chosen, row_of_bucket = np.unique(winners, return_inverse=True)
        member_weights = weights[columns]
        entropies, weight_size = _summaries(
            feedback_matrix(encoded[chosen], encoded),
            row_of_bucket.astype(np.int64),
            columns,
            member_weights,
            starts,
            span,
        )
        results.append(
            _result(
                int(opener),
                patterns,
                starts,
                member_weights,
                float(weights.sum()),
                winners,
                entropies,
                in_bucket,
                weight_size,
                weights,
            )
        )
    return results


# --------------------------------------------------------------------------- artifacts


def _part_table(mode: str, words: Sequence[str], results: Sequence[SecondGuesses]) -> pa.Table:
    """Part rows: one per (opener, bucket), the opener's figures repeated on each row."""
    if not results:
        return PART_SCHEMA.empty_table()
    length = len(words[0])
    word_array = np.array(words, dtype=object)
    figures = [opener_figures(result) for result in results]
    counts = np.array([len(result.pattern_ids) for result in results])
    opener_ids = np.repeat([result.opener for result in results], counts)
    pattern_ids = np.concatenate([result.pattern_ids for result in results])
    names = {int(p): pattern_string(int(p), length) for p in np.unique(pattern_ids)}
    second_ids = np.concatenate([result.second_ids for result in results])

    def per_opener(name: str) -> np.ndarray:
        return np.repeat([getattr(figure, name) for figure in figures], counts)

    columns = {
        "mode": pa.array([mode] * len(pattern_ids), pa.string()),
        "opener": pa.array(word_array[opener_ids], pa.string()),
        "opener_id": pa.array(opener_ids.astype(np.int32)),
        "pattern_id": pa.array(pattern_ids.astype(np.int64)),
        "pattern": pa.array([names[int(p)] for p in pattern_ids], pa.string()),
        "bucket_size": pa.array(np.concatenate([r.sizes for r in results]).astype(np.int32)),
        "bucket_probability": pa.array(np.concatenate([r.probabilities for r in results])),
        "second_guess": pa.array(word_array[second_ids], pa.string()),
        "second_guess_id": pa.array(second_ids.astype(np.int32)),
        "second_entropy": pa.array(np.concatenate([r.second_entropies for r in results])),
        "second_is_candidate": pa.array(
            np.concatenate([r.second_is_candidate for r in results]), pa.bool_()
        ),
        "h1": pa.array(per_opener("h1").astype(np.float64)),
        "h2_expected": pa.array(per_opener("h2_expected").astype(np.float64)),
        "two_step_total": pa.array(per_opener("two_step_total").astype(np.float64)),
        "expected_left_after_two": pa.array(
            per_opener("expected_left_after_two").astype(np.float64)
        ),
        "p_solved_by_two": pa.array(per_opener("p_solved_by_two").astype(np.float64)),
        "n_buckets": pa.array(per_opener("n_buckets").astype(np.int32)),
    }
    return pa.table(columns, schema=PART_SCHEMA)


def opener_part_bounds(n_openers: int, part: int, n_parts: int) -> tuple[int, int]:
    """[start, stop) of part `part` when n_openers are split into n_parts near-equal runs."""
    if n_parts < 1 or not 0 <= part < n_parts:
        raise PipelineError(f"part {part} does not exist among {n_parts} parts")
    return part * n_openers // n_parts, (part + 1) * n_openers // n_parts


def write_opener_part(
    words_path: str | Path,
    patterns_index: str | Path,
    output: str | Path,
    *,
    start: int,
    stop: int,
) -> None:
    """Mode "answers": second guesses and figures of openers with word_id in [start, stop).

    Reads the whole guess x answer matrix through its checked loader; writes a part file
    (second-guess rows carrying their opener's figures) for merge_opener_parts.
    """
    index = load_word_index(words_path)
    store = load_pattern_matrix(patterns_index, words_path, columns="answers")
    n_words = len(index.words)
    if store.columns != "answers" or store.shape != (n_words, len(index.answer_rows)):
        raise PipelineError(
            f"{patterns_index}: expected a {n_words} x {len(index.answer_rows)} guess x answer "
            f"matrix, found {store.shape[0]} x {store.shape[1]} ({store.columns} columns)"
        )
    if not 0 <= start <= stop <= n_words:
        raise PipelineError(f"opener range [{start}, {stop}) is not within [0, {n_words}]")
    solver = AnswerSolver(store.full(), index.answer_rows, index.words)
    results: list[SecondGuesses] = []
    began = time.perf_counter()
    for done, opener in enumerate(range(start, stop), start=1):
        results.append(solver.solve(opener))
        if done % 250 == 0 or opener == stop - 1:
            elapsed = time.perf_counter() - began
            log.info(
                "answers openers %d-%d: %d/%d done, %.1f ms each, %.0f s left",
                start,
                stop - 1,
                done,
                stop - start,
                1000 * elapsed / done,
                elapsed / done * (stop - start - done),
            )
    write_parquet(
        _part_table("answers", index.words, results),
        output,
        inputs={"words": words_path, "patterns": patterns_index},
        config={"mode": "answers", "start": start, "stop": stop, "tie_tolerance": TIE_TOLERANCE},
    )


def write_prior_part(
    words_path: str | Path,
    commonness_path: str | Path,
    output: str | Path,
    *,
    top_k: int = DEFAULT_TOP_K,
    start: int = 0,
    stop: int | None = None,
) -> None:
    """Mode "prior": the top_k openers by entropy_prior (every allowed word a candidate,
    weighted by p_common), positions [start, stop) of that ranking, as a part file.

    Guess x guess patterns are computed block by block on the fly, never stored whole.
    """
    index = load_word_index(words_path)
    weights = load_p_common(commonness_path, index)
    encoded = encode_words(index.words)
    chosen = top_openers(prior_entropies(encoded, weights), top_k)
    stop = len(chosen) if stop is None else min(stop, len(chosen))
    if not 0 <= start <= stop:
        raise PipelineError(f"prior range [{start}, {stop}) is not within [0, {len(chosen)}]")
    began = time.perf_counter()
    results = prior_second_guesses(encoded, weights, chosen[start:stop])
    log.info(
        "prior: top %d openers by entropy_prior, positions %d-%d, %.1f s",
        top_k,
        start,
        stop - 1,
        time.perf_counter() - began,
    )
    results.sort(key=lambda result: result.opener)
    write_parquet(
        _part_table("prior", index.words, results),
        output,
        inputs={"words": words_path, "commonness": commonness_path},
        config={
            "mode": "prior",
            "top_k": top_k,
            "start": start,
            "stop": stop,
            "tie_tolerance": TIE_TOLERANCE,
        },
    )


def rank_order(totals: np.ndarray, word_ids: np.ndarray) -> np.ndarray:
    """Positions in rank order: highest total first; totals within TIE_TOLERANCE of the
    highest of their run (runs taken from the top down) are tied and go by word_id."""
    order = np.lexsort((word_ids, -totals))
    result = []
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and totals[order[j]] >= totals[order[i]] - TIE_TOLERANCE:
            j += 1
        result.extend(sorted(order[i:j].tolist(), key=lambda k: word_ids[k]))
        i = j
    return np.array(result, dtype=np.int64)


def _read_part(path: str | Path, words_sha256: str) -> pa.Table:
    """One part file, checked for its schema and its word index."""
    try:
        table = pq.read_table(path)
        provenance = read_provenance(path)
    except (OSError, pa.ArrowException, ValueError) as error:
        raise InputError(path, f"cannot be read as an openers part: {error}") from None
    if not table.schema.equals(PART_SCHEMA, check_metadata=False):
        raise InputError(path, "is not an openers part (unexpected columns)")
    if provenance.get("inputs_sha256", {}).get("words") != words_sha256:
        raise InputError(path, "was computed from another word index; rerun its job")
    return table


def merge_opener_parts(
    parts: Sequence[str | Path],
    openers_output: str | Path,
    second_guesses_output: str | Path,
    *,
    words_path: str | Path,
) -> None:
    """Concatenate part files into the openers table and the second-guess table.

    Each opener must appear once per mode; answers-mode parts must cover every allowed
    word. Ranks (1 = highest two_step_total, ties by word_id, see rank_order) are given
    per mode. The
    openers table is sorted by (mode, rank), the second-guess table by (mode, opener_id,
    pattern_id) in row groups of SECOND_GUESS_ROW_GROUP rows.
    """
    index = load_word_index(words_path)
    words_sha256 = sha256_file(words_path)
    if not parts:
        raise PipelineError("no openers parts to merge")
    table = pa.concat_tables([_read_part(path, words_sha256) for path in parts])
    table = table.sort_by(
        [("mode", "ascending"), ("opener_id", "ascending"), ("pattern_id", "ascending")]
    )
    modes = table["mode"].to_numpy(zero_copy_only=False).astype(str)
    opener_ids = table["opener_id"].to_numpy()
    pattern_ids = table["pattern_id"].to_numpy()
    new_opener = np.ones(len(modes), dtype=bool)
    new_opener[1:] = (modes[1:] != modes[:-1]) | (opener_ids[1:] != opener_ids[:-1])
    repeated = ~new_opener & (pattern_ids == np.roll(pattern_ids, 1))
    if np.any(repeated):
        row = int(np.flatnonzero(repeated)[0])
        raise PipelineError(
            f"opener {index.words[opener_ids[row]]!r} ({modes[row]}) appears in more than one part"
        )
    heads = np.flatnonzero(new_opener)
    for mode in sorted(set(modes[heads])):
        if mode not in MODES:
            raise PipelineError(f"unknown mode {mode!r} in openers parts")
    answers = opener_ids[heads][modes[heads] == "answers"]
    if answers.size and not np.array_equal(answers, np.arange(len(index.words))):
        missing = sorted(set(range(len(index.words))) - set(answers.tolist()))
        raise PipelineError(
            f"answers-mode parts cover {answers.size} of {len(index.words)} openers "
            f"(first missing word_id: {missing[0] if missing else '?'})"
        )
    openers = table.take(pa.array(heads))
    head_modes = modes[heads]
    totals = openers["two_step_total"].to_numpy()
    ids = opener_ids[heads]
    rank = np.empty(len(heads), dtype=np.int32)
    for mode in set(head_modes):
        members = np.flatnonzero(head_modes == mode)
        order = members[rank_order(totals[members], ids[members])]
        rank[order] = np.arange(1, len(order) + 1, dtype=np.int32)
    openers_table = pa.table(
        {
            "mode": openers["mode"],
            "word_id": openers["opener_id"],
            "word": openers["opener"],
            "h1": openers["h1"],
            "h2_expected": openers["h2_expected"],
            "two_step_total": openers["two_step_total"],
            "expected_left_after_two": openers["expected_left_after_two"],
            "p_solved_by_two": openers["p_solved_by_two"],
            "rank": pa.array(rank),
            "n_buckets": openers["n_buckets"],
        },
        schema=OPENERS_SCHEMA,
    ).sort_by([("mode", "ascending"), ("rank", "ascending")])
    inputs = {"words": words_path} | {f"part_{i:04d}": path for i, path in enumerate(parts)}
    config = {"tie_tolerance": TIE_TOLERANCE, "modes": sorted(set(head_modes))}
    write_parquet(openers_table, openers_output, inputs=inputs, config=config)
    write_parquet(
        table.select(SECOND_GUESS_SCHEMA.names),
        second_guesses_output,
        inputs=inputs,
        config=config,
        row_group_size=SECOND_GUESS_ROW_GROUP,
    )
    log.info(
        "openers: %s; %d second-guess rows",
        ", ".join(f"{mode} {int(np.sum(head_modes == mode))}" for mode in sorted(set(head_modes))),
        table.num_rows,
    )
