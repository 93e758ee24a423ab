"""Reply histograms and partitions for the optimal search: the innermost loops, on arrays.

These take plain arrays (no search context) so that they can be swapped for shared
partition kernels. Every histogram uses a caller's all-zero count array and leaves it all
zero again, touching only the entries it used.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit


@njit(cache=True, nogil=True)
def class_stats(replies, cnt, all_green, max_collisions):
    """(k, sum of c^2, 1 if the guess is in H) for the replies of one guess to H.

    k = n - (answers that fall into an already seen class), so once those collisions
    exceed max_collisions the guess cannot reach the k needed: then k = -1. Branch-free
    counting, so the only branch that depends on the data is the rarely taken exit.
    """
    n = replies.shape[0]
    k = 0
    s2 = 0
    seen = n
    for j in range(n):
        p = replies[j]
        c = cnt[p]
        k += c == 0
        s2 += 2 * c + 1
        cnt[p] = c + 1
        if j + 1 - k > max_collisions:
            seen = j + 1
            k = -1
            break
    hit = 1 if cnt[all_green] > 0 else 0
    for j in range(seen):
        cnt[replies[j]] = 0
    return k, s2, hit


@njit(cache=True, nogil=True)
def weighted_class_stats(replies, answers, weights, cnt, heaviest, all_green):
    """(k, sum of c^2, the weight of the guess if it is in H, the sum over classes of
    each class's heaviest answer) for the replies of one guess to H (replies[j] that of
    answer column answers[j], of weight weights[answers[j]] > 0): what guess_bound needs
    under weights. cnt and heaviest (one entry per pattern) are all zero before and
    after."""
    n = replies.shape[0]
    k, s2, _ = class_stats(replies, cnt, all_green, n)
    for j in range(n):
        p = replies[j]
        heaviest[p] = max(heaviest[p], weights[answers[j]])
    hit = heaviest[all_green]
    most = 0
    for j in range(n):
        p = replies[j]
        most += heaviest[p]
        heaviest[p] = 0
    return k, s2, hit, most


@njit(cache=True, nogil=True)
def gather_replies(mt, answers, guesses, out) -> None:
    """out[i * n + j] = reply to guesses[i] from answers[j]: one contiguous row per guess.

    Reads the (A, G) transposed matrix row by row, so a block of guesses costs n streaming
    reads and the histograms then read contiguous bytes.
    """
    n = answers.shape[0]
    for j in range(n):
        row = mt[answers[j]]
        for i in range(guesses.shape[0]):
            out[i * n + j] = row[guesses[i]]


@njit(cache=True, nogil=True)
def split_by_reply(row, answers, sizes, starts, classes, n_old, fill, out) -> int:
    """Stable counting sort of `answers` by reply row[answer] into out; returns k.

    sizes[p] / starts[p]: size and offset in out of class p; classes[:k]: the non-empty
    classes by pattern id. The n_old classes of the previous split are cleared first, and
    `fill` (an all-zero scratch of one entry per pattern) is left all zero.
    """
    for i in range(n_old):
        sizes[classes[i]] = 0
    for h in answers:
        sizes[row[h]] += 1
    k = 0
    at = 0
    for p in range(sizes.shape[0]):
        if sizes[p] > 0:
            classes[k] = p
            starts[p] = at
            fill[p] = at
            at += sizes[p]
            k += 1
    for h in answers:
        p = row[h]
        out[fill[p]] = h
        fill[p] += 1
    for i in range(k):
        fill[classes[i]] = 0
    return k


@njit(cache=True, nogil=True)
def candidate_split(m, answer_rows, answers, cnt, rem):
    """(2n - 1, guess) if a possible answer splits H into singletons, (2n, guess) if into
    singletons and one pair (needs three guesses left), else (-1, -1).

    A candidate is dropped at its first collision that rules both out, so most cost a few
    steps, not n.
    """
    n = answers.shape[0]
    good = -1
    for t in answers:
        guess = answer_rows[t]
        row = m[guess]
        spare = 1 if good < 0 and rem >= 3 else 0  # collisions a useful candidate may have
        collisions = 0
        seen = n
        for j in range(n):
            p = row[answers[j]]
            c = cnt[p]
            collisions += c > 0
            cnt[p] = c + 1
            if collisions > spare:
                seen = j + 1
                break
        for j in range(seen):
            cnt[row[answers[j]]] = 0
        if collisions == 0:
            return 2 * n - 1, np.int64(guess)
        if collisions == 1 and spare == 1:
            good = guess
    if good >= 0:
        return 2 * n, np.int64(good)
    return -1, np.int64(-1)


@njit(cache=True, nogil=True)
def sort_by_size(classes, count, sizes) -> None:
    """Insertion sort of classes[:count] by size, then pattern id (there are few)."""
    for i in range(1, count):
        p = classes[i]
        key = sizes[p] * 65536 + p
        j = i - 1
        while j >= 0 and sizes[classes[j]] * 65536 + classes[j] > key:
            classes[j + 1] = classes[j]
            j -= 1
        classes[j + 1] = p


_SHORT = 6  # the longest words whose projections (5 bits a letter) fit below the stamp


@njit(cache=True, nogil=True)
def _letter_codes(present):
    """letter -> letter + 1 if it is in the `present` set (the letters of H), else 0."""
    code_of = np.zeros(32, dtype=np.int64)
    for a in range(26):
        if (present >> a) & 1:
            code_of[a] = a + 1
    return code_of


@njit(cache=True, nogil=True)
def distinct_guesses(source, letters, present, table, generation, out) -> int:
    """Keep the first guess of `source` of every group that splits H identically.

    A letter no answer in H contains is grey wherever it stands and never makes another
    tile yellow, so two guesses that agree on every position holding a letter of H (the
    `present` letter set) get the same reply from every answer. Such a guess is a
    duplicate; source ascends, so each kept guess is the lowest row of its group. `table`
    is a hash set of (generation << 32 | projected word); out may be source itself. Words
    of more than _SHORT letters have longer projections: _distinct_long.
    """
    if letters.shape[1] > _SHORT:
        return _distinct_long(source, letters, present, table, generation, out)
    code_of = _letter_codes(present)
    mask = table.shape[0] - 1
    stamp = generation << 32
    kept = 0
    for index in range(source.shape[0]):
        word = source[index]
        code = 0
        for i in range(letters.shape[1]):
            code = (code << 5) | code_of[letters[word, i]]
        entry = stamp | code
        slot = ((code * 2654435761) >> 15) & mask
        while table[slot] != entry and (table[slot] >> 32) == generation:
            slot = (slot + 1) & mask
        new = table[slot] != entry  # branch-free from here: half of the words are new
        table[slot] = entry
        out[kept] = word
        kept += new
    return kept


@njit(cache=True, nogil=True)
def _distinct_long(source, letters, present, table, generation, out) -> int:
    """distinct_guesses for words of more than _SHORT letters: the stamp gets the bits above
    the 5L of the projected word, and the table is cleared whenever it wraps."""
    code_of = _letter_codes(present)
    mask = table.shape[0] - 1
    shift = 5 * letters.shape[1]
    stamp = 1 + (generation - 1) % ((1 << (63 - shift)) - 1)
    if stamp == 1:
        table[:] = 0
    kept = 0
    for index in range(source.shape[0]):
        word = source[index]
        code = 0
        for i in range(letters.shape[1]):
            code = (code << 5) | code_of[letters[word, i]]
        entry = (stamp << shift) | code
        slot = ((code * 2654435761) >> 15) & mask
        while table[slot] != entry and (table[slot] >> shift) == stamp:
            slot = (slot + 1) & mask
        new = table[slot] != entry
        table[slot] = entry
        out[kept] = word
        kept += new
    return kept
