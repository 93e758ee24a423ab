"""Issue 62, measurement M2: the hard-mode family test at the opener's classes.

In hard mode greens are permanent, so every later guess has at most d = L - |greens| free
positions. A one-position family W (words that share all letters but one position, such
as `.ight`) loses at most d members to each guess: each distinct letter a guess puts in
a free position can single out at most the one member that has it there. With r guesses
left, the last of which must be the answer, the class cannot be finished when
|W| - 1 > (r - 1) * d. (The constant-time variant of Selby's endgame cut-off, wordle.cpp,
`minoverwords_givenlist`, as issue 62 states it.)

This counts the openers whose classes, right after the opener, already fail the test
(so the opener has no winning tree), checks every one against Alex Selby's published
total (a finite total there would be a bug), and times it.

    python -m benchmarks.family_bound [--mirror ../shared/wordle-data] [--list nyt20230701]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from benchmarks.bound_quality import read_published
from pipeline.core.hard_mode import legal_mask, letter_counts, pattern_colours, requirements
from pipeline.core.wordle import MAX_GUESSES, encode_words
from pipeline.kernels.feedback import feedback_matrix

GREEN = 2


def read_words(path: Path) -> list[str]:
    return [w.strip() for w in path.read_text().split() if w.strip()]


def masked_keys(encoded: np.ndarray) -> np.ndarray:
    """keys[p, a]: an id of answer a's letters with position p left out (equal ids: the
    two words differ at most at p)."""
    n, length = encoded.shape
    keys = np.empty((length, n), dtype=np.int64)
    for p in range(length):
        rest = np.delete(encoded, p, axis=1).astype(np.int64)
        keys[p] = np.unique(rest, axis=0, return_inverse=True)[1].ravel()
    return keys


def greens_of(patterns: np.ndarray, length: int) -> np.ndarray:
    """The number of green positions of each pattern id."""
    count = np.zeros(patterns.shape, dtype=np.int64)
    rest = patterns.astype(np.int64)
    for _ in range(length):
        count += rest % 3 == GREEN
        rest //= 3
    return count


def infeasible_by_family(row: np.ndarray, keys: np.ndarray, guesses_left: int) -> bool:
    """Whether some class of one opener's reply row fails the family test."""
    length = keys.shape[0]
    largest = family_sizes(row, keys)
    patterns = np.flatnonzero(largest)
    patterns = patterns[patterns != 3**length - 1]
    free = length - greens_of(patterns, length)
    return bool(np.any(largest[patterns] - 1 > (guesses_left - 1) * free))


def family_sizes(row: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """largest[q]: the largest one-position family in the class of reply q."""
    length, n = keys.shape
    largest = np.zeros(3**length, dtype=np.int64)
    for p in range(length):
        values, counts = np.unique(row.astype(np.int64) * (n + 1) + keys[p], return_counts=True)
        np.maximum.at(largest, values // (n + 1), counts)
    return largest


def second_guess_fails(
    members: np.ndarray, replies: np.ndarray, keys: np.ndarray, known: int, guesses_left: int
) -> np.ndarray:
    """Bool per second guess (rows of `replies`, its replies on the class `members`):
    some class it leaves fails the family test. `known`: the greens the opener showed,
    as a bit per position."""
    length = keys.shape[0]
    rows, size = replies.shape
    subs = 3**length
    row_ids = np.arange(rows, dtype=np.int64)[:, None]
    fails = np.zeros(rows, dtype=bool)
    green_bits = np.zeros(subs, dtype=np.int64)
    rest = np.arange(subs, dtype=np.int64)
    for position in range(length):
        green_bits |= (rest % 3 == GREEN).astype(np.int64) << position
        rest //= 3
    free = length - np.array([bin(b | known).count("1") for b in green_bits.tolist()])
    for p in range(length):
        local = np.unique(keys[p, members], return_inverse=True)[1].ravel()
        combined = (row_ids * subs + replies) * (size + 1) + local[None, :]
        values, counts = np.unique(combined.ravel(), return_counts=True)
        sub = (values // (size + 1)) % subs
        bad = (counts - 1 > (guesses_left - 1) * free[sub]) & (sub != subs - 1)
        fails[np.unique(values[bad] // (size + 1) // subs)] = True
    return fails


def infeasible_at_depth_two(
    opener: int, row: np.ndarray, matrix: np.ndarray, allowed: np.ndarray, keys: np.ndarray
) -> bool:
    """Whether some class of the opener fails the family test after every legal second
    guess (hard mode), with MAX_GUESSES - 2 guesses left then."""
    length = keys.shape[0]
    largest = family_sizes(row, keys)
    counts = letter_counts(allowed)
    for reply in np.flatnonzero(largest >= 2 + (MAX_GUESSES - 3)).tolist():
        if reply == 3**length - 1:
            continue
        colours = pattern_colours([reply], length)[0]
        rule = requirements(allowed[opener][None, :], colours[None, :])
        legal = np.flatnonzero(legal_mask(allowed, rule, counts))
        members = np.flatnonzero(row == reply)
        known = sum(1 << i for i in range(length) if colours[i] == GREEN)
        replies = matrix[np.ix_(legal, members)].astype(np.int64)
        if second_guess_fails(members, replies, keys, known, MAX_GUESSES - 2).all():
            return True
    return False


def first_level(allowed: list[str], matrix: np.ndarray, keys: np.ndarray) -> list[str]:
    """The openers with a class that fails the test right after them."""
    rows = zip(allowed, matrix, strict=True)
    return [word for word, row in rows if infeasible_by_family(row, keys, MAX_GUESSES - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("../shared/wordle-data"))
    parser.add_argument("--list", default="nyt20230701", choices=["nyt20220830", "nyt20230701"])
    parser.add_argument("--sample", type=int, default=100, help="openers per group, second level")
    args = parser.parse_args(argv)
    allowed = read_words(args.mirror / "allowed.txt")
    answers_file = "nyt20230701/answers.txt" if args.list == "nyt20230701" else "answers.txt"
    answers = read_words(args.mirror / answers_file)
    encoded = encode_words(answers)
    matrix = feedback_matrix(encode_words(allowed), encoded)
    keys = masked_keys(encoded)
    started = time.process_time()
    flagged = first_level(allowed, matrix, keys)
    seconds = time.process_time() - started
    published = read_published(args.mirror / "published" / f"results_hard_{args.list}")
    infeasible = {word for word, total in published.items() if total is None}
    wrong = [w for w in flagged if w not in infeasible]
    print(f"{args.list}, hard mode: {len(allowed)} openers, {len(infeasible)} with no winning "
          "tree (published)")  # fmt: skip
    print(f"family test at the opener's classes: {len(flagged)} openers infeasible "
          f"({100 * len(flagged) / max(len(infeasible), 1):.1f} % of the published ones), "
          f"{seconds:.1f} CPU s in all")  # fmt: skip
    print(f"flagged with a finite published total (must be 0): {len(wrong)} {wrong[:10]}")
    wrong += depth_two(args.sample, allowed, matrix, keys, set(flagged), infeasible)
    return 1 if wrong else 0


def depth_two(sample, allowed, matrix, keys, flagged, infeasible) -> list[str]:  # noqa: ANN001
    """The test after every legal second guess, on a seeded sample of the infeasible
    openers the first level missed and of the feasible ones; the wrongly flagged."""
    rng = np.random.default_rng(62)
    encoded = encode_words(allowed)
    rows = {word: i for i, word in enumerate(allowed)}
    missed = sorted(infeasible - flagged)
    feasible = sorted(set(allowed) - infeasible)
    wrong = []
    for name, words in (("infeasible (published)", missed), ("feasible", feasible)):
        chosen = rng.choice(len(words), size=min(sample, len(words)), replace=False)
        started = time.process_time()
        hits = [words[i] for i in sorted(chosen.tolist())
                if infeasible_at_depth_two(rows[words[i]], matrix[rows[words[i]]], matrix,
                                           encoded, keys)]  # fmt: skip
        seconds = time.process_time() - started
        print(f"second level, {len(chosen)} seeded {name} openers not flagged at the first: "
              f"{len(hits)} flagged ({100 * len(hits) / max(len(chosen), 1):.0f} %), "
              f"{seconds / max(len(chosen), 1):.2f} CPU s each")  # fmt: skip
        if name == "feasible":
            wrong += hits
    return wrong


if __name__ == "__main__":
    raise SystemExit(main())
