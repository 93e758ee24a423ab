"""Numba kernels of the letter-group bound of the second-guess search.

A guess's reply is the tuple of its letter groups' replies (a letter x at the positions I
it holds in the guess), and a group's reply depends only on a candidate's greens on I
and on how many copies of x it holds. By subadditivity a guess's reply entropy over a
bucket is at most the sum of its groups' entropies, which cost one small merge per
group and bucket; the bound rules most (guess, bucket) pairs out before a pattern is
read. Scores here are "sum of c log2 c"-like (lower is better), so the bound is a lower
bound on a guess's score.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.core.wordle import ALPHABET_SIZE

# Letter-group slots per guess: a word has at most as many groups as letters, and up to
# SLOTS the sums over a guess's groups run a constant trip count, which the compiler
# unrolls (longer words take the general loop; shorter ones pad with a no-group slot).
SLOTS = 5


@njit(cache=True, nogil=True)
def group_work(n_cells):  # pragma: no cover - compiled
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
def tally_cells(
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
def group_keys(
    x, mask, size, popcount, shift, cells, cell_list, cell_n, key_mass, key_list
):  # pragma: no cover - compiled
    """Merge letter x's cells into the replies of group (x, mask): fills key_mass at the
    keys listed in key_list and returns how many (the absent reply is left out).

    The reply on the group's positions I is fixed by the greens on I and by how many
    other positions of I turn yellow: min(copies - greens, |I| - greens). A cell is
    (position bits << shift) | copies; shifts, not divisions: this runs for every group
    of every bucket.
    """
    low = (1 << shift) - 1
    n_keys = 0
    for i in range(cell_n[x]):
        cell = cell_list[x, i]
        green = (cell >> shift) & mask
        n_green = popcount[green]
        key = (green << shift) + min((cell & low) - n_green, size - n_green)
        if key_mass[key] == 0.0:
            key_list[n_keys] = key
            n_keys += 1
        key_mass[key] += cells[x, cell]
    return n_keys


@njit(cache=True, nogil=True)
def clear_cells(cells, cell_list, cell_n, present):  # pragma: no cover - compiled
    """Zero what _tally_cells filled."""
    for x in range(cell_n.size):
        for i in range(cell_n[x]):
            cells[x, cell_list[x, i]] = 0.0
        cell_n[x] = 0
        present[x] = 0


@njit(cache=True, nogil=True)
def group_counts(
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
    shift,
    work,
    values,
    out,
):  # pragma: no cover - compiled
    """Fixed-point sum of c*log2(c) over the replies of every letter group (see
    LetterGroups) on columns[lo:hi], all candidates weighing 1. A letter no candidate
    holds gives its groups one reply: n log2 n."""
    cells, cell_list, cell_n, present, key_mass, key_list = work
    tally_cells(columns, lo, hi, ones, cand_letters, cand_cells, cells, cell_list, cell_n, present)
    n = hi - lo
    for k in range(group_letter.size):
        x = group_letter[k]
        if cell_n[x] == 0:
            out[k] = values[n]
            continue
        n_keys = group_keys(
            x, group_mask[k], group_size[k], popcount, shift, cells, cell_list, cell_n,
            key_mass, key_list,
        )  # fmt: skip
        score = values[n - present[x]]
        for i in range(n_keys):
            score += values[int(key_mass[key_list[i]])]
            key_mass[key_list[i]] = 0.0
        out[k] = score
    clear_cells(cells, cell_list, cell_n, present)


@njit(cache=True, nogil=True)
def group_weights(
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
    shift,
    work,
    out,
):  # pragma: no cover - compiled
    """sum over replies of W*log2(W) (W: reply weight) for every letter group on
    columns[lo:hi]; weights[j] belongs to columns[j]."""
    cells, cell_list, cell_n, present, key_mass, key_list = work
    tally_cells(
        columns, lo, hi, weights, cand_letters, cand_cells, cells, cell_list, cell_n, present
    )
    n = hi - lo
    total = 0.0
    for j in range(lo, hi):
        total += weights[j]
    for k in range(group_letter.size):
        x = group_letter[k]
        n_keys = group_keys(
            x, group_mask[k], group_size[k], popcount, shift, cells, cell_list, cell_n,
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
    clear_cells(cells, cell_list, cell_n, present)


@njit(cache=True, nogil=True, inline="always")
def group_bound(guess_groups, g, group_scores, offset):  # pragma: no cover - compiled
    """Lower bound on guess g's score from its letter groups' scores (see solve_counts).
    Inlined where it is called: a call per guess would cost more than the sum."""
    total = -offset
    if guess_groups.shape[1] == SLOTS:  # a constant trip count: the compiler unrolls it
        for j in range(SLOTS):
            total += group_scores[guess_groups[g, j]]
    else:
        for j in range(guess_groups.shape[1]):
            total += group_scores[guess_groups[g, j]]
    return total


@njit(cache=True, nogil=True)
def group_bounds(guess_groups, group_scores, offset, out):  # pragma: no cover - compiled
    """group_bound for every guess at once, into out; returns the first guess of least
    bound."""
    least = 0
    for g in range(guess_groups.shape[0]):
        total = group_bound(guess_groups, g, group_scores, offset)
        out[g] = total
        if total < out[least]:
            least = g
    return least


@njit(cache=True, nogil=True)
def group_bound_offset(values, n, slots):  # pragma: no cover - compiled
    """What the letter-group bound subtracts: unused slots point at a last "no
    information" group scoring n log2 n, so score >= sum over slots - (slots - 1) n log2 n,
    less an allowance for the rounding of the fixed-point values."""
    return (slots - 1) * values[n] + 16 * (slots + 1) * (n + 1)


@njit(cache=True, nogil=True)
def bucket_group_scores(groups, work, values, columns, lo, hi, ones, scores):  # pragma: no cover
    """Every letter group's score on the bucket columns[lo:hi] into scores (the last entry,
    the no-group slot, n log2 n); returns the offset group_bound subtracts. `groups`:
    LetterGroups.kernel_arguments(); `work`: LetterGroups.work()."""
    guess_groups, group_letter, group_mask, group_size, cand_letters, cand_cells = groups[:6]
    popcount, shift = groups[6:]
    scores[group_letter.size] = values[hi - lo]
    group_counts(
        columns, lo, hi, ones, group_letter, group_mask, group_size, cand_letters,
        cand_cells, popcount, shift, work, values, scores,
    )  # fmt: skip
    return group_bound_offset(values, hi - lo, guess_groups.shape[1])
