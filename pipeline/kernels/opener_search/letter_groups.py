"""The letter-group bound of the opener search: the letter groups of every guess, and the
kernels that score them on a bucket.

A guess's reply is the tuple of its letter groups' replies (a letter x at the positions I
it holds in the guess), and a group's reply depends only on a candidate's greens on I
and on how many copies of x it holds. By subadditivity a guess's reply entropy over a
bucket is at most the sum of its groups' entropies, which cost one small merge per
group and bucket; the bound rules most (guess, bucket) pairs out before a pattern is
read. Scores here are "sum of c log2 c"-like (lower is better), so the bound is a lower
bound on a guess's score.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from pipeline.core.arrays import distinct
from pipeline.core.wordle import ALPHABET_SIZE
from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.settings import SLOTS

# Letter groups of every guess, and per candidate word the facts that fix their replies.
LetterGroups = namedtuple(
    "LetterGroups",
    [
        "guess_groups",  # (G, max(L, SLOTS)) uint32 group ids, padded with K (no group)
        "group_letter",  # (K,)
        "group_mask",  # (K,) bit i set: the letter is at position i
        "group_size",  # (K,) positions in the group
        "cand_letters",  # (C, L) distinct letters of each candidate, -1 padded
        "cand_cells",  # (C, L) their cells: (position bits << shift) | copies
        "popcount",  # (2**L,)
        "shift",  # int: bits that hold a letter's copies (up to L) in a cell
    ],
)

# Scratch of the group tallies: per letter, a cell per (position bits, copies).
GroupWork = namedtuple(
    "GroupWork",
    [
        "cells",  # (26, cells) candidate mass per letter and cell
        "cell_list",  # (26, cells) the cells in use, per letter
        "cell_n",  # (26,) how many
        "present",  # (26,) candidates holding the letter
        "key_mass",  # (cells,) mass per reply of one group
        "key_list",  # (cells,) the replies in use
    ],
)


@njit(cache=True, nogil=True)
def group_work(groups):  # pragma: no cover - compiled
    """Zeroed scratch of the group tallies (each kernel leaves it zeroed again)."""
    n_cells = groups.popcount.size << groups.shift
    return GroupWork(
        np.zeros((ALPHABET_SIZE, n_cells), dtype=np.float64),
        np.zeros((ALPHABET_SIZE, n_cells), dtype=np.int64),
        np.zeros(ALPHABET_SIZE, dtype=np.int64),
        np.zeros(ALPHABET_SIZE, dtype=np.int64),
        np.zeros(n_cells, dtype=np.float64),
        np.zeros(n_cells, dtype=np.int64),
    )


def build_letter_groups(guesses: np.ndarray, candidates: np.ndarray) -> LetterGroups:
    """LetterGroups of encoded guesses (G, L) over encoded candidates (C, L). Group ids
    are numbered in order of first use (guess by guess, letters ascending)."""
    n_guesses, length = guesses.shape
    letters, masks = _distinct_letters(guesses)
    used = letters >= 0
    keys, first_use, inverse = distinct(letters[used] << length | masks[used])
    by_first_use = np.argsort(first_use)
    group_id = np.empty(keys.size, dtype=np.int64)
    group_id[by_first_use] = np.arange(keys.size)
    keys = keys[by_first_use]
    guess_groups = np.full((n_guesses, max(length, SLOTS)), keys.size, dtype=np.int64)
    guess_groups[:, :length][used] = group_id[inverse]
    popcount = np.array([bin(v).count("1") for v in range(1 << length)], dtype=np.int64)
    cand_letters, cand_bits = _distinct_letters(candidates)
    shift = length.bit_length()
    cand_cells = np.where(cand_letters >= 0, cand_bits << shift | popcount[cand_bits], 0)
    group_mask = keys & ((1 << length) - 1)
    return LetterGroups(
        guess_groups=guess_groups.astype(np.uint32),  # unsigned: no negative indexing
        group_letter=keys >> length,
        group_mask=group_mask,
        group_size=popcount[group_mask],
        cand_letters=cand_letters,
        cand_cells=cand_cells,
        popcount=popcount,
        shift=shift,
    )


def _distinct_letters(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(letters, masks), each (N, L): the distinct letters of each encoded word in
    ascending order (-1 padded) and, for each, its positions as bits (0 padded)."""
    n_words, length = words.shape
    codes = words.astype(np.int64)
    same = codes[:, :, None] == codes[:, None, :]  # [word, i, j]: the letters at i and j
    bits = (same << np.arange(length)).sum(axis=2)  # positions of the letter at i
    first = ~(same & np.tri(length, k=-1, dtype=bool)).any(axis=2)  # not at any j < i
    slot = ((codes[:, None, :] < codes[:, :, None]) & first[:, None, :]).sum(axis=2)
    word, position = np.nonzero(first)
    letters = np.full((n_words, length), -1, dtype=np.int64)
    masks = np.zeros((n_words, length), dtype=np.int64)
    letters[word, slot[word, position]] = codes[word, position]
    masks[word, slot[word, position]] = bits[word, position]
    return letters, masks


@njit(cache=True, nogil=True)
def tally_cells(columns, lo, hi, weights, groups, work):  # pragma: no cover - compiled
    """Letter-group groundwork for columns[lo:hi]: per letter, the candidate mass in each
    cell (positions of the letter as bits, copies of it) and the number holding it."""
    cand_letters, cand_cells = groups.cand_letters, groups.cand_cells
    cells, cell_list, cell_n, present = work.cells, work.cell_list, work.cell_n, work.present
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
    of every bucket, so it takes only the arrays it reads, not LetterGroups and GroupWork:
    numba counts a reference to each array of a tuple argument on every call.
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
def clear_cells(work):  # pragma: no cover - compiled
    """Zero what tally_cells filled."""
    cells, cell_list, cell_n, present = work.cells, work.cell_list, work.cell_n, work.present
    for x in range(cell_n.size):
        for i in range(cell_n[x]):
            cells[x, cell_list[x, i]] = 0.0
        cell_n[x] = 0
        present[x] = 0


@njit(cache=True, nogil=True)
def group_counts(columns, lo, hi, ones, groups, work, values, out):  # pragma: no cover
    """Fixed-point sum of c*log2(c) over the replies of every letter group (see
    LetterGroups) on columns[lo:hi], all candidates weighing 1. A letter no candidate
    holds gives its groups one reply: n log2 n."""
    cell_n, present = work.cell_n, work.present
    key_mass, key_list = work.key_mass, work.key_list
    tally_cells(columns, lo, hi, ones, groups, work)
    n = hi - lo
    for k in range(groups.group_letter.size):
        x = groups.group_letter[k]
        if cell_n[x] == 0:
            out[k] = values[n]
            continue
        n_keys = group_keys(
            x, groups.group_mask[k], groups.group_size[k], groups.popcount, groups.shift,
            work.cells, work.cell_list, cell_n, key_mass, key_list,
        )  # fmt: skip
        score = values[n - present[x]]
        for i in range(n_keys):
            score += values[int(key_mass[key_list[i]])]
            key_mass[key_list[i]] = 0.0
        out[k] = score
    clear_cells(work)


@njit(cache=True, nogil=True)
def group_weights(columns, lo, hi, weights, groups, work, out):  # pragma: no cover - compiled
    """sum over replies of W*log2(W) (W: reply weight) for every letter group on
    columns[lo:hi]; weights[j] belongs to columns[j]."""
    present, cell_n, key_mass, key_list = work.present, work.cell_n, work.key_mass, work.key_list
    tally_cells(columns, lo, hi, weights, groups, work)
    n = hi - lo
    total = 0.0
    for j in range(lo, hi):
        total += weights[j]
    for k in range(groups.group_letter.size):
        x = groups.group_letter[k]
        n_keys = group_keys(
            x, groups.group_mask[k], groups.group_size[k], groups.popcount, groups.shift,
            work.cells, work.cell_list, cell_n, key_mass, key_list,
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
    clear_cells(work)


@njit(cache=True, nogil=True, inline="always")
def group_bound(guess_groups, g, group_scores, offset):  # pragma: no cover - compiled
    """Lower bound on guess g's score from its letter groups' scores (module docstring).
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
    the no-group slot, n log2 n); returns the offset group_bound subtracts."""
    scores[groups.group_letter.size] = values[hi - lo]
    group_counts(columns, lo, hi, ones, groups, work, values, scores)
    return group_bound_offset(values, hi - lo, groups.guess_groups.shape[1])
