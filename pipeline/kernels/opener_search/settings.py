"""Tuning constants and switches of the opener search: the best second guess per bucket.

A bucket is the set of answers that gave one reply to an opener; its best second guess is
the guess whose replies split it best (pipeline.core.ties breaks ties). The search scores
few guesses, by these mechanisms. Each can be switched off in `SearchSettings`, which
changes the time a search takes, never a winner (tests check each one alone against
brute force):

- `letter_groups`, the letter-group bound: a guess's reply is the tuple of its letter
  groups' replies (a letter and the positions it holds), so its score is at least the sum
  of the groups' scores, which cost one small merge per group and bucket. Applies to
  every bucket the pair paths below do not take, and to the weighted search; it rules
  out about 97 % of the pattern reads on the real lists. The bounds are taken GUESS_BLOCK
  guesses at a time, against the best score so far.
- `pair_bound`, the pair bound: a guess that leaves p pairs of a bucket's answers untold
  scores at least the least score of any partition with p pairs. Applies to buckets of
  PAIR_SIZES answers: from about 6 answers it rules out far more than the letter-group
  bound, and up to about 40 counting the pairs costs less than the bounds and scores it
  saves (real lists).
- `survivor_pairs`: on buckets of SURVIVOR_PAIRS answers up to PAIR_SIZES[1], the pairs
  are counted only for the guesses the letter-group bound leaves in the running; below
  SURVIVOR_PAIRS that bound costs more than the pairs it saves (real lists).
- `perfect_split`: a split with every reply distinct beats every other by far more than
  the tie tolerance, so the first one found ends the bucket's scan (the weighted search
  only when the lightest words' merge cost exceeds the tolerance).
- `transposed_small`: a bucket of up to SMALL_BUCKET answers is read from the transposed
  matrix, whose few answer rows stay in cache (the pair paths always read it).
- `prefetch`: on larger buckets the first PREFETCH_CELLS cells of the next PREFETCH_AHEAD
  guesses in the running are requested from memory while the current four are scored.

Sizes, not switches: RECORDS, the capacity of each bucket's tie list (an overflow is
rescored the plain way); PAIR_BLOCK and PAIR_CAPACITY, the guesses whose pairs are
counted at once and the pairs a byte counter holds; SLOTS, the letter-group slots summed
with a constant trip count; WEIGHTED_CHUNK, the guesses whose patterns the weighted
search computes at a time.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

RECORDS = 4
SMALL_BUCKET = 30
PAIR_SIZES = (6, 40)
SURVIVOR_PAIRS = 16
GUESS_BLOCK = 2048
PREFETCH_AHEAD = 8
PREFETCH_CELLS = 4
PAIR_BLOCK = 2048
PAIR_CAPACITY = 255
SLOTS = 5
WEIGHTED_CHUNK = 64

MECHANISMS = (
    "letter_groups", "pair_bound", "survivor_pairs", "perfect_split", "transposed_small",
    "prefetch",
)  # fmt: skip

# What the kernels read, once per bucket: plain bools and ints in a namedtuple, which numba
# types by kind, not value, so one compiled version serves every setting.
KernelSettings = namedtuple(
    "KernelSettings",
    [
        "letter_groups",  # bool
        "pairs_from",  # least answers of a bucket the pair bound takes (pair_bound)
        "survivors_from",  # least answers of a bucket survivor_pairs takes
        "pairs_to",  # most answers of a bucket either pair path takes
        "perfect_split",  # bool
        "small_bucket",  # most answers of a bucket read transposed (transposed_small)
        "block",  # guesses bounded at a time
        "prefetch",  # bool
    ],
)


@dataclass(frozen=True)
class SearchSettings:
    """Which mechanisms of the opener search run (module docstring), and their sizes."""

    letter_groups: bool = True
    pair_bound: bool = True
    survivor_pairs: bool = True
    perfect_split: bool = True
    transposed_small: bool = True
    prefetch: bool = True
    pair_sizes: tuple[int, int] = PAIR_SIZES
    survivors_from: int = SURVIVOR_PAIRS
    small_bucket: int = SMALL_BUCKET
    block: int = GUESS_BLOCK
    records: int = RECORDS
    weighted_chunk: int = WEIGHTED_CHUNK

    def __post_init__(self) -> None:
        for value, what in (
            (self.block, "a block of {} guesses"),
            (self.records, "tie lists of {} records"),
            (self.weighted_chunk, "chunks of {} guesses"),
        ):
            if value < 1:
                raise ValueError(what.format(value))

    @classmethod
    def only(cls, *mechanisms: str) -> SearchSettings:
        """Settings with the given mechanisms on and every other one off."""
        unknown = set(mechanisms) - set(MECHANISMS)
        if unknown:
            raise ValueError(f"no mechanism {sorted(unknown)}; known: {MECHANISMS}")
        return cls(**{name: name in mechanisms for name in MECHANISMS})

    def kernel(self, n_answers: int) -> KernelSettings:
        """The switches and sizes as the kernels read them, for n_answers answers."""
        pairs_from, pairs_to = self.pair_sizes
        return KernelSettings(
            letter_groups=self.letter_groups,
            pairs_from=int(pairs_from) if self.pair_bound else n_answers + 1,
            survivors_from=int(self.survivors_from) if self.survivor_pairs else n_answers + 1,
            pairs_to=int(min(pairs_to, n_answers)),
            perfect_split=self.perfect_split,
            small_bucket=int(self.small_bucket) if self.transposed_small else 0,
            block=int(self.block),
            prefetch=self.prefetch,
        )
