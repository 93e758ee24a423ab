"""Selby's endgame cut-off: a one-position family that the guesses left cannot finish.

After Alex Selby's wordle.cpp (github.com/alex1770/wordle, MIT licence; the endgame code
at the top of `minoverwords_givenlist`, and `initendgames`), written afresh for numba. A
family is the set of answers that agree on every position but one (`.ight`, `fa.ed`),
kept when the whole answer list has at least FAMILY_MIN of them, as Selby's
minendgamecount. At a node H with `rem` guesses left, L is the largest family's members
in H (mx of them), and for each guess t the node allows, n_t is the number of distinct
replies t gets on L.

Why the cut-off holds: the members of L differ in one letter, at one position p. A guess
t colours a member by its letter l only through whether l is t's letter at p (green) and
whether l is a letter of t whose count changes a yellow; so each letter t "distinguishes"
gets a reply of its own (a class of one), and every other letter shares one base reply.
Follow the base class down any tree: each guess takes at most n_t - 1 members out of it
(n_t when no member of L is in its base class, but such a t splits L into singletons,
so S below is at least mx - 1 and nothing is cut), and a guess played twice takes none
the second time. With the last guess the answer itself, the base class must be down to
one member after rem - 1 guesses, so with S the sum of the rem - 1 largest n_t - 1 over
distinct guesses, mx - 1 > S means no tree finishes H in time: its value is INF. The
guesses a later node allows are a subset of this node's (hard mode only removes), and
the ones `distinct` drops reply as a kept one does on all of H, so the node's own list
gives every n_t the argument needs. Nothing here depends on weights: the verdict is
feasibility, and a subset's value bounds the node's with any weights >= 0.

Selby's second use, when mx - 1 <= S but the margin S - (mx - 1) is below rem - 1: search
L alone at the same node (its value is at most H's: a tree for H is one for L, with the
other answers' guesses left out); a value that reaches beta cuts H.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit

FAMILY_MIN = 4  # members a family needs in the whole answer list (Selby's minendgamecount)


def answer_families(answers: np.ndarray, least: int = FAMILY_MIN) -> tuple[np.ndarray, int]:
    """(families, count): families[a, p] is the id of the family of answer a that varies
    at position p (answers equal at every other position), -1 when that family has fewer
    than `least` members; ids run 0..count - 1."""
    n, length = answers.shape
    families = np.full((n, length), -1, dtype=np.int32)
    count = 0
    for p in range(length):
        rest = np.delete(answers, p, axis=1).astype(np.int64)
        if n == 0:
            break
        _, inverse, sizes = np.unique(rest, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.ravel()
        kept = np.flatnonzero(sizes >= least)
        ids = np.full(len(sizes), -1, dtype=np.int64)
        ids[kept] = count + np.arange(len(kept))
        families[:, p] = ids[inverse]
        count += len(kept)
    return families, count


@njit(cache=True, nogil=True)
def largest_family(families, counts, answers):
    """(family id, members in `answers`) of the family with the most members among the
    answers (the lowest id of those tied; -1, 0 when none); counts is left all zero."""
    best, most = -1, 0
    for h in answers:
        for p in range(families.shape[1]):
            f = families[h, p]
            if f >= 0:
                counts[f] += 1
                if counts[f] > most or (counts[f] == most and f < best):
                    best, most = f, counts[f]
    for h in answers:
        for p in range(families.shape[1]):
            if families[h, p] >= 0:
                counts[families[h, p]] = 0
    return best, most


@njit(cache=True, nogil=True)
def family_members(families, answers, family, out) -> int:
    """Write the answers that belong to `family` into out, in order; how many."""
    count = 0
    for h in answers:
        for p in range(families.shape[1]):
            if families[h, p] == family:
                out[count] = h
                count += 1
                break
    return count


@njit(cache=True, nogil=True)
def spread(m, guesses, live, r, enough, seen, top) -> int:
    """S: the sum of the r largest n_t - 1 over `guesses` (n_t: distinct replies of t on
    `live`), or some value >= enough once S reaches it. seen (one entry per pattern) is
    left all zero; top (r entries) is scratch."""
    for i in range(r):
        top[i] = 0
    total = 0
    for t in guesses:
        row = m[t]
        k = 0
        for h in live:
            p = row[h]
            k += seen[p] == 0
            seen[p] = 1
        for h in live:
            seen[row[h]] = 0
        gain = k - 1
        if r == 0 or gain <= top[r - 1]:
            continue
        total += gain - top[r - 1]
        i = r - 1
        while i > 0 and top[i - 1] < gain:
            top[i] = top[i - 1]
            i -= 1
        top[i] = gain
        if total >= enough:
            break
    return total
