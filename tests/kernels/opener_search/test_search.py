"""pipeline.kernels.opener_search: the best second guess per bucket against brute force.

The searches prune with the letter-group bound or the pair bound and keep short tie
lists; neither may change a winner. Each is checked bucket by bucket against
tests/support/naive.py (every word scored by its entropy over the bucket, then the tie rule), with
the bounds off, with tie lists of one entry, and against the plain rescoring that
decides when a tie list overflows. (Counted scores are integers: distinct partitions lie
far further apart than the tolerance, so only the weighted search's lists overflow on
real word lists.)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.opener_search import settings as search_settings
from pipeline.kernels.opener_search import weighted
from pipeline.kernels.opener_search.count_search import CountSearch, rescore
from pipeline.kernels.opener_search.letter_groups import build_letter_groups, group_bounds
from pipeline.kernels.opener_search.settings import SearchSettings
from pipeline.kernels.opener_search.weighted import weighted_winner
from pipeline.kernels.partition import bucket_layout
from tests.support.artifact_set import OPENER_ANSWERS, OPENER_GUESSES
from tests.support.naive import best_second_guess, reply_groups


@pytest.fixture(scope="module")
def small() -> dict:
    words = sorted(set(OPENER_GUESSES + OPENER_ANSWERS))
    encoded = encode_words(words)
    answer_rows = np.array([words.index(a) for a in sorted(OPENER_ANSWERS)], dtype=np.int64)
    return {
        "words": words,
        "answers": sorted(OPENER_ANSWERS),
        "encoded": encoded,
        "answer_rows": answer_rows,
        "matrix": feedback_matrix(encoded, encoded[answer_rows]),
    }


@pytest.fixture
def rescores(monkeypatch) -> list:
    """Records every call of the plain rescoring (a tie list overflowed)."""
    calls: list = []
    original = weighted.rescore
    monkeypatch.setattr(weighted, "rescore", lambda *args: calls.append(1) or original(*args))
    return calls


@pytest.mark.parametrize(
    ("pair_sizes", "survivor_pairs"),
    [
        (search_settings.PAIR_SIZES, search_settings.SURVIVOR_PAIRS),
        ((2, 24), 25),
        ((2, 24), 2),
        ((2, 24), 5),
        ((4, 5), 5),
        (None, 2),
    ],
)
def test_count_search_equals_brute_force_with_and_without_the_bound(
    small, pair_sizes, survivor_pairs
):
    """The pair bound on the default sizes, on every bucket (every guess's pairs counted,
    or only the letter-group survivors' from 2 or 5 answers), on a few sizes, on none."""
    words, matrix, answer_rows = small["words"], small["matrix"], small["answer_rows"]
    if pair_sizes is None:
        chosen = SearchSettings(pair_bound=False, survivor_pairs=False)
    else:
        chosen = SearchSettings(pair_sizes=pair_sizes, survivors_from=survivor_pairs)
    bounded = CountSearch(matrix, answer_rows, small["encoded"], settings=chosen)
    unbounded = SearchSettings(letter_groups=False, pair_bound=False, survivor_pairs=False)
    plain = CountSearch(matrix, answer_rows, small["encoded"], settings=unbounded)
    one_record = replace(chosen, records=1)
    squeezing = CountSearch(matrix, answer_rows, small["encoded"], settings=one_record)
    table = bounded.table
    weight = {a: 1.0 for a in small["answers"]}
    ties: Counter[str] = Counter()
    checked = paired = survivors = 0
    for opener in range(matrix.shape[0]):
        columns, starts, _ = bucket_layout(matrix[opener])
        fast = bounded.winners(columns, starts)
        slow = plain.winners(columns, starts)
        squeezed = squeezing.winners(columns, starts)
        for name in ("winners", "in_bucket", "best_s"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), (opener, name)
            assert np.array_equal(getattr(fast, name), getattr(squeezed, name)), (opener, name)
        for b in range(starts.size - 1):
            bucket = columns[starts[b] : starts[b + 1]]
            members = [words[answer_rows[c]] for c in bucket]
            second, score, decided = best_second_guess(words, members, weight)
            ties.update(decided)
            assert words[fast.winners[b]] == second, (words[opener], members)
            # the fallback for an overflowing tie list picks the same guess
            rows = answer_rows[bucket]
            assert rescore(matrix[:, bucket], rows) == (
                fast.winners[b],
                fast.in_bucket[b],
            )
            assert bool(fast.in_bucket[b]) == (second in members)
            # best_s is the winner's fixed-point S over the bucket
            sizes = [len(g) for g in reply_groups(second, members).values()]
            assert fast.best_s[b] == int(table.values[sizes].sum())
            n = len(members)
            assert math.log2(n) - fast.best_s[b] / (n * table.scale) == pytest.approx(
                score, abs=1e-9
            )
            checked += 1
            if pair_sizes is not None and pair_sizes[0] <= n <= pair_sizes[1]:
                paired += 1
                survivors += n >= survivor_pairs
    assert paired > 20 if pair_sizes is not None else paired == 0
    if pair_sizes is not None and survivor_pairs <= 5:  # the survivors' path really ran
        assert survivors >= 10
    assert checked == 617  # every (opener, reply) of the 56 words over the 24 answers
    # The lists really exercise both tie rules.
    assert ties["candidate_beats_earlier_word"] > 0
    assert ties["earlier_word_among_non_candidates"] > 0


@pytest.mark.parametrize(("small_bucket", "block"), [(0, 1), (0, 7), (10**6, 3), (5, 2048)])
def test_count_search_layouts_and_blocks_change_nothing(small, small_bucket, block):
    """Guess rows or the transposed matrix, bounds for a block of 1 guess or for all at
    once: the same winners, sides and scores as the defaults for every bucket."""
    matrix, answer_rows, encoded = small["matrix"], small["answer_rows"], small["encoded"]
    default = CountSearch(matrix, answer_rows, encoded)
    sizes = SearchSettings(small_bucket=small_bucket, block=block)
    other = CountSearch(matrix, answer_rows, encoded, settings=sizes)
    for opener in range(matrix.shape[0]):
        columns, starts, _ = bucket_layout(matrix[opener])
        expected, found = default.winners(columns, starts), other.winners(columns, starts)
        for name in ("winners", "in_bucket", "best_s"):
            assert np.array_equal(getattr(found, name), getattr(expected, name)), (opener, name)


@pytest.mark.parametrize(
    "words",
    [
        ["able", "bale", "bead", "bled", "dale", "deal", "lead", "lade", "peal", "plea", "leap"],
        ["abated", "debate", "beaded", "banded", "sedate", "seated", "teased", "basted"],
    ],
)
def test_count_search_on_other_word_lengths_equals_brute_force(words):
    """Four letters pad the letter-group slots; six take the general loop."""
    encoded = encode_words(words)
    answer_rows = np.arange(0, len(words), 2, dtype=np.int64)
    matrix = feedback_matrix(encoded, encoded[answer_rows])
    answers = [words[r] for r in answer_rows]
    weight = {a: 1.0 for a in answers}
    for small_bucket in (0, 10**6):
        sizes = SearchSettings(small_bucket=small_bucket, block=3)
        search = CountSearch(matrix, answer_rows, encoded, settings=sizes)
        for opener in range(len(words)):
            columns, starts, _ = bucket_layout(matrix[opener])
            found = search.winners(columns, starts)
            for b in range(starts.size - 1):
                members = [answers[c] for c in columns[starts[b] : starts[b + 1]]]
                assert words[found.winners[b]] == best_second_guess(words, members, weight)[0]


def test_settings_refuse_an_empty_block_list_or_chunk():
    with pytest.raises(ValueError, match="block of 0 guesses"):
        SearchSettings(block=0)
    with pytest.raises(ValueError, match="tie lists of 0 records"):
        SearchSettings(records=0)
    with pytest.raises(ValueError, match="chunks of 0 guesses"):
        SearchSettings(weighted_chunk=0)
    with pytest.raises(ValueError, match="no mechanism"):
        SearchSettings.only("letter_groups", "guesswork")


def test_count_search_over_a_subset_of_answers(small):
    """The solver's look-ahead searches the buckets of a node's answers only."""
    words, matrix, answer_rows = small["words"], small["matrix"], small["answer_rows"]
    search = CountSearch(matrix, answer_rows, small["encoded"])
    node = np.arange(0, matrix.shape[1], 2)  # every other answer
    weight = {a: 1.0 for a in small["answers"]}
    for guess in (0, 17, len(words) - 1):
        order, starts, _ = bucket_layout(matrix[guess, node])
        found = search.winners(node[order], starts)
        for b in range(starts.size - 1):
            members = [words[answer_rows[c]] for c in node[order[starts[b] : starts[b + 1]]]]
            assert words[found.winners[b]] == best_second_guess(words, members, weight)[0]


def test_count_search_refuses_a_matrix_of_other_words(small):
    matrix, answer_rows, encoded = small["matrix"], small["answer_rows"], small["encoded"]
    with pytest.raises(ValueError, match="does not match the answers"):
        CountSearch(matrix[:, :-1], answer_rows, encoded)
    with pytest.raises(ValueError, match="words for a matrix"):
        CountSearch(matrix, answer_rows, encoded[:-1])
    with pytest.raises(ValueError, match="does not match the words"):
        CountSearch(matrix[::-1], answer_rows, encoded)  # a transposed or shuffled read


@pytest.mark.parametrize(("records", "chunk"), [(4, 64), (1, 64), (4, 3)])
def test_weighted_winner_with_extreme_weights_equals_brute_force(small, rescores, records, chunk):
    """Every word a candidate, weighted. Near-zero weights make a perfect split no better
    than others within the tolerance (no early stop); records=1 forces the rescoring;
    chunks of 3 guesses make the best so far change between chunks (the word list has
    fewer than 64 words)."""
    sizes = SearchSettings(records=records, weighted_chunk=chunk)
    words, encoded = small["words"], small["encoded"]
    weights = np.array([1e-12 if i % 3 == 0 else 1.0 + i / 7 for i in range(len(words))])
    weight = dict(zip(words, weights.tolist(), strict=True))
    groups = build_letter_groups(encoded, encoded)
    checked = 0
    for opener in ("salet", "crazy", "xylyl"):
        row = feedback_matrix(encoded[[words.index(opener)]], encoded)[0]
        ids_sorted, starts, _ = bucket_layout(row)
        for b in range(starts.size - 1):
            ids = ids_sorted[starts[b] : starts[b + 1]]
            if ids.size < 2:
                continue
            winner, in_bucket = weighted_winner(encoded, groups, ids, weights[ids], settings=sizes)
            members = [words[i] for i in ids]
            second, _, _ = best_second_guess(words, members, weight)
            assert (words[winner], in_bucket) == (second, second in members), (opener, members)
            checked += 1
    assert checked > 20
    if records == 1:
        assert rescores  # the tie lists overflowed and the rescoring decided


def test_weighted_winner_refuses_words_it_cannot_read_in_place(small):
    encoded = small["encoded"]
    groups = build_letter_groups(encoded, encoded)
    ids, weights = np.array([0, 1, 2]), np.ones(3)
    for bad in (encoded.astype(np.int64), np.asfortranarray(encoded), encoded[0]):
        with pytest.raises(ValueError, match="C-contiguous"):
            weighted_winner(bad, groups, ids, weights)


def test_weighted_winner_with_uniform_weights_matches_counting(small):
    """Uniform weights over every word: the weighted search picks what the count search
    picks when every word is an answer."""
    words, encoded = small["words"], small["encoded"]
    everyone = np.arange(len(words), dtype=np.int64)
    search = CountSearch(feedback_matrix(encoded, encoded), everyone, encoded)
    groups = build_letter_groups(encoded, encoded)
    row = feedback_matrix(encoded[[words.index("react")]], encoded)[0]
    ids, starts, _ = bucket_layout(row)
    counted = search.winners(ids, starts)
    for b in range(starts.size - 1):
        bucket = ids[starts[b] : starts[b + 1]]
        winner, in_bucket = weighted_winner(encoded, groups, bucket, np.ones(bucket.size))
        assert (winner, in_bucket) == (counted.winners[b], counted.in_bucket[b])


def test_letter_groups_are_each_letter_and_its_positions():
    words = ["sissy", "abate", "mamma", "quiet", "eerie"]
    candidates = ["sassy", "eerie", "cigar"]
    groups = build_letter_groups(encode_words(words), encode_words(candidates))
    n_groups = groups.group_letter.size
    for g, word in enumerate(words):
        ids = [int(k) for k in groups.guess_groups[g] if k < n_groups]
        got = {(chr(97 + groups.group_letter[k]), int(groups.group_mask[k])) for k in ids}
        expected = {(x, sum(1 << i for i, y in enumerate(word) if y == x)) for x in set(word)}
        assert got == expected, word
        assert all(groups.group_size[k] == bin(groups.group_mask[k]).count("1") for k in ids)
    for c, word in enumerate(candidates):
        letters = [chr(97 + x) for x in groups.cand_letters[c] if x >= 0]
        assert letters == sorted(set(word))
        for j, x in enumerate(letters):
            positions = sum(1 << i for i, y in enumerate(word) if y == x)
            assert groups.cand_cells[c, j] == (positions << 3) | word.count(x)


def test_group_bounds_sum_each_guess_groups_and_name_the_first_least(small):
    """Every guess's bound is the sum of its groups' scores (the no-group slot included)
    less the offset; the guess returned is the first of least bound."""
    groups = build_letter_groups(small["encoded"], small["encoded"][small["answer_rows"]])
    n_groups = groups.group_letter.size
    for seed in range(5):
        scores = np.random.default_rng(seed).integers(0, 50, n_groups + 1)
        scores[n_groups] = 7
        lower = np.zeros(len(groups.guess_groups), dtype=np.int64)
        least = group_bounds(groups.guess_groups, scores, 3, lower)
        expected = scores[groups.guess_groups.astype(np.int64)].sum(axis=1) - 3
        assert np.array_equal(lower, expected)
        assert least == int(np.argmin(expected))


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 6, 7])
def test_letter_groups_of_every_word_length_are_spelled_out(length):
    """The same facts on random words of each length (few letters: repeats everywhere),
    plus the layout the kernels rely on: group ids numbered by first use, guess by guess
    and letters ascending, and every unused slot pointing at the no-group id K."""
    rng = np.random.default_rng(length)
    words = sorted({"".join(rng.choice(list("abcd"), length)) for _ in range(40)})
    candidates = words[::3]
    groups = build_letter_groups(encode_words(words), encode_words(candidates))
    n_groups = groups.group_letter.size
    first_use: list[tuple[int, int]] = []
    for g, word in enumerate(words):
        expected = [
            (ord(x) - 97, sum(1 << i for i, y in enumerate(word) if y == x))
            for x in sorted(set(word))
        ]
        first_use += [key for key in expected if key not in first_use]
        slots = groups.guess_groups[g].tolist()
        ids = [first_use.index(key) for key in expected]
        assert slots == ids + [n_groups] * (len(slots) - len(ids)), word
    pairs = zip(groups.group_letter.tolist(), groups.group_mask.tolist(), strict=True)
    assert list(pairs) == first_use
    assert groups.group_size.tolist() == [bin(m).count("1") for _, m in first_use]
    shift = length.bit_length()
    for c, word in enumerate(candidates):
        letters = sorted(set(word))
        cells = [sum(1 << i for i, y in enumerate(word) if y == x) << shift | word.count(x)
                 for x in letters]  # fmt: skip
        padding = length - len(letters)
        assert groups.cand_letters[c].tolist() == [ord(x) - 97 for x in letters] + [-1] * padding
        assert groups.cand_cells[c].tolist() == cells + [0] * padding
