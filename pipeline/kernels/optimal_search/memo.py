"""Exact memo of solved search nodes: open addressing over numpy arrays, full keys verified.

A key is (guesses left, the sorted answer set, and in hard mode the constraint state). The
hash (a Zobrist sum: one random 64-bit word per answer, per guesses-left value and per
state entry) only picks the slot; a hit also compares the stored key element by element,
so two answer sets that collide on the hash can never share a value. An entry holds a
lower bound `low` and an upper bound `high` on the node's optimal total; low == high means
solved exactly, and `best` then names an optimal guess.

When the table or its key pool is full the whole memo is cleared (counted in meta) and the
search carries on: the memo only saves work, it never decides a value.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from pipeline.core.wordle import ALPHABET_SIZE
from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.tuning import MEMO_LOAD_PERCENT

Memo = namedtuple(
    "Memo",
    ["hashes", "offsets", "lengths", "rems", "lows", "highs", "bests", "pool", "meta", "zobrist"],
)
ENTRIES, POOL_USED, CLEARS, HITS, ANSWERS_AT, GREEN_AT, MINS_AT = range(7)  # meta slots
MAX_REM = 32  # Zobrist words reserved for "guesses left"
_MAX_COUNT = 8  # Zobrist words per letter for its minimum count (larger counts share one)


def new_memo(n_answers: int, length: int, slots_log2: int, pool_size: int) -> Memo:
    """Allocate an empty memo; Zobrist words from a fixed seed so runs are reproducible."""
    slots = 1 << slots_log2
    green_at = MAX_REM + n_answers
    mins_at = green_at + length * (ALPHABET_SIZE + 1)
    n_words = mins_at + ALPHABET_SIZE * _MAX_COUNT
    meta = np.zeros(8, dtype=np.int64)
    meta[ANSWERS_AT], meta[GREEN_AT], meta[MINS_AT] = MAX_REM, green_at, mins_at
    rng = np.random.default_rng(20220830)
    return Memo(
        hashes=np.zeros(slots, dtype=np.uint64),
        offsets=np.zeros(slots, dtype=np.int64),
        lengths=np.zeros(slots, dtype=np.int32),
        rems=np.zeros(slots, dtype=np.int32),
        lows=np.zeros(slots, dtype=np.int32),
        highs=np.zeros(slots, dtype=np.int32),
        bests=np.zeros(slots, dtype=np.int32),
        pool=np.zeros(pool_size, dtype=np.int32),
        meta=meta,
        zobrist=rng.integers(1, 2**63, size=n_words, dtype=np.uint64),
    )


@njit(cache=True, nogil=True)
def memo_hash(memo, rem, answers, green, mins, hard) -> np.uint64:
    """Zobrist sum of the key; never 0 (0 marks an empty slot)."""
    z = memo.zobrist
    h = z[rem]
    base = memo.meta[ANSWERS_AT]
    for x in answers:
        h += z[base + x]
    if hard:
        base = memo.meta[GREEN_AT]
        for i in range(green.shape[0]):
            h += z[base + i * (ALPHABET_SIZE + 1) + green[i] + 1]
        base = memo.meta[MINS_AT]
        for a in range(ALPHABET_SIZE):
            h += z[base + a * _MAX_COUNT + min(mins[a], _MAX_COUNT - 1)]
    return h | np.uint64(1)


@njit(cache=True, nogil=True)
def _same_key(memo, slot, h, rem, answers, green, mins, hard) -> bool:
    """Full comparison of the stored key at `slot` with (rem, answers, state)."""
    n = answers.shape[0]
    if memo.hashes[slot] != h or memo.lengths[slot] != n or memo.rems[slot] != rem:
        return False
    pool = memo.pool
    at = memo.offsets[slot]
    for j in range(n):
        if pool[at + j] != answers[j]:
            return False
    if hard:
        at += n
        for i in range(green.shape[0]):
            if pool[at + i] != green[i]:
                return False
        at += green.shape[0]
        for a in range(ALPHABET_SIZE):
            if pool[at + a] != mins[a]:
                return False
    return True


@njit(cache=True, nogil=True)
def memo_find(memo, h, rem, answers, green, mins, hard) -> int:
    """Slot holding exactly this key, or -1."""
    mask = memo.hashes.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while memo.hashes[slot] != 0:
        if _same_key(memo, slot, h, rem, answers, green, mins, hard):
            memo.meta[HITS] += 1
            return slot
        slot = (slot + 1) & mask
    return -1


@njit(cache=True, nogil=True)
def clear_memo(memo) -> None:
    """Empty the memo (a search then depends on nothing searched before)."""
    memo.hashes[:] = 0
    memo.meta[ENTRIES] = 0
    memo.meta[POOL_USED] = 0
    memo.meta[CLEARS] += 1


@njit(cache=True, nogil=True)
def memo_store(memo, h, rem, answers, green, mins, hard, low, high, best) -> None:
    """Tighten the bounds of an existing entry, or insert a new one (clearing when full)."""
    slot = memo_find(memo, h, rem, answers, green, mins, hard)
    if slot >= 0:
        memo.meta[HITS] -= 1  # a store is not a hit
        if low > memo.lows[slot]:
            memo.lows[slot] = low
        if high < memo.highs[slot]:
            memo.highs[slot] = high
            memo.bests[slot] = best
        return
    n = answers.shape[0]
    size = n + (green.shape[0] + ALPHABET_SIZE if hard else 0)
    slots = memo.hashes.shape[0]
    if memo.meta[ENTRIES] * 100 >= slots * MEMO_LOAD_PERCENT or (
        memo.meta[POOL_USED] + size > memo.pool.shape[0]
    ):
        clear_memo(memo)
        if size > memo.pool.shape[0]:
            return
    slot = np.int64(h & np.uint64(slots - 1))
    while memo.hashes[slot] != 0:
        slot = (slot + 1) & (slots - 1)
    at = memo.meta[POOL_USED]
    memo.pool[at : at + n] = answers
    if hard:
        memo.pool[at + n : at + n + green.shape[0]] = green
        memo.pool[at + n + green.shape[0] : at + size] = mins
    memo.meta[POOL_USED] = at + size
    memo.meta[ENTRIES] += 1
    memo.hashes[slot] = h
    memo.offsets[slot] = at
    memo.lengths[slot] = n
    memo.rems[slot] = rem
    memo.lows[slot] = low
    memo.highs[slot] = high
    memo.bests[slot] = best
