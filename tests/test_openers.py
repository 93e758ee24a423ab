"""Tests for best openers and second guesses against independent brute-force references."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline import openers
from pipeline.commonness import write_commonness
from pipeline.errors import PipelineError
from pipeline.matrix import chunk_count, load_pattern_matrix, write_chunk_index, write_pattern_chunk
from pipeline.openers import (
    AnswerSolver,
    merge_opener_parts,
    opener_figures,
    prior_second_guesses,
    second_guesses,
    second_guesses_numpy,
    write_opener_part,
    write_prior_part,
)
from pipeline.patterns import encode_words
from pipeline.words import load_word_index, write_word_index

TIE = 1e-9

# Answers and extra guesses: repeated letters, near-identical answers (cases where a
# candidate and an earlier non-candidate split a bucket equally well) and junk guesses.
SMALL_ANSWERS = [
    "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval",
    "serve", "heath", "dwarf", "model", "karma", "stink", "batch", "catch", "hatch",
    "latch", "match", "patch", "watch", "eerie", "mamma",
]  # fmt: skip
SMALL_GUESSES = [
    "grade", "quiet", "bench", "abate", "feign", "major", "death", "fresh", "crust",
    "stool", "colon", "abase", "marry", "react", "batty", "pride", "floss", "helix",
    "croak", "staff", "paper", "unfed", "whelp", "trawl", "outdo", "adobe", "crazy",
    "xylyl", "fuzzy", "qajaq", "aahed", "salet",
]  # fmt: skip
SMALL_COUNTS = {word: 1000 + 37 * i for i, word in enumerate(SMALL_GUESSES + SMALL_ANSWERS)}


# --------------------------------------------------------------------------- reference


def wordle(guess: str, answer: str) -> int:
    """Feedback by the rules as written: greens, then yellows consume leftover letters."""
    colours = [0] * len(guess)
    leftover: list[str] = []
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            colours[i] = 2
        else:
            leftover.append(a)
    for i, g in enumerate(guess):
        if colours[i] == 0 and g in leftover:
            colours[i] = 1
            leftover.remove(g)
    return sum(c * 3**i for i, c in enumerate(colours))


def entropy(masses: list[float]) -> float:
    total = sum(masses)
    return -sum(m / total * math.log2(m / total) for m in masses)


def split(guess: str, members: list[str], weight: dict[str, float]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = defaultdict(list)
    for answer in members:
        groups[wordle(guess, answer)].append(answer)
    return groups


def brute_force(
    words: list[str], candidates: list[str], weight: dict[str, float], opening: list[str]
) -> dict:
    """Buckets, best second guesses (any of `words`) and figures of each opener in
    `opening`, straight from the rules. Also counts how often each tie rule decided
    something, so tests can insist the rules were exercised.
    """
    total = sum(weight[c] for c in candidates)
    result: dict[str, dict] = {}
    ties = {"candidate_beats_earlier_word": 0, "earlier_word_among_non_candidates": 0}
    for opener in opening:
        buckets = split(opener, candidates, weight)
        rows = {}
        h1 = h2 = left = solved = 0.0
        for pattern in sorted(buckets):
            members = buckets[pattern]
            mass = sum(weight[a] for a in members)
            if len(members) == 1:
                second, score = members[0], 0.0
            else:
                scores = [
                    entropy([sum(weight[a] for a in g) for g in split(w, members, weight).values()])
                    for w in words
                ]
                best = max(scores)
                tied = [i for i, s in enumerate(scores) if s >= best - TIE]
                inside = [i for i in tied if words[i] in members]
                pick = (inside or tied)[0]
                if inside and tied[0] != inside[0]:
                    ties["candidate_beats_earlier_word"] += 1
                if not inside and len(tied) > 1:
                    ties["earlier_word_among_non_candidates"] += 1
                second, score = words[pick], scores[pick]
            is_candidate = second in members
            sub = split(second, members, weight).values()
            left_b = sum(sum(weight[a] for a in g) / mass * len(g) for g in sub)
            solve_b = weight[second] / mass if is_candidate else 0.0
            q = mass / total
            h1 -= q * math.log2(q)
            h2 += q * score
            left += q * (left_b - solve_b)
            solved += q * solve_b
            rows[pattern] = (len(members), q, second, score, is_candidate)
        result[opener] = {
            "rows": rows,
            "h1": h1,
            "h2": h2,
            "total": h1 + h2,
            "left": left,
            "solved": solved,
        }
    result["_ties"] = ties
    return result


def ranked(openers: list[str], reference: dict, words: list[str] | None = None) -> list[str]:
    """Openers by total, best first; totals within 1e-9 of the best of their run tie."""
    words = words or openers
    left = sorted(openers, key=lambda w: -reference[w]["total"])
    result = []
    while left:
        top = reference[left[0]]["total"]
        tied = [w for w in left if reference[w]["total"] >= top - TIE]
        result += sorted(tied, key=words.index)
        left = [w for w in left if w not in tied]
    return result


# --------------------------------------------------------------------------- fixtures


def build_data(folder: Path, allowed: list[str], answers: list[str], chunk_rows: int) -> dict:
    """words.parquet and a chunked guess x answer matrix, as the pipeline builds them."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "allowed.txt").write_text("\n".join(allowed) + "\n")
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    words = folder / "words.parquet"
    write_word_index(folder / "allowed.txt", folder / "answers.txt", words)
    n_words = len(load_word_index(words).words)
    chunks = []
    for chunk in range(chunk_count(n_words, chunk_rows)):
        path = folder / "patterns" / f"chunk-{chunk:04d}.npy.zst"
        write_pattern_chunk(words, path, chunk=chunk, chunk_rows=chunk_rows, zstd_level=1)
        chunks.append(path)
    index = folder / "patterns" / "index.json"
    write_chunk_index(words, chunks, index, chunk_rows=chunk_rows)
    return {"folder": folder, "words": words, "index": index}


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> dict:
    data = build_data(
        tmp_path_factory.mktemp("small"), SMALL_GUESSES + SMALL_ANSWERS, SMALL_ANSWERS, 16
    )
    frequency = data["folder"] / "unigram_freq.csv"
    frequency.write_text(
        "word,count\n" + "".join(f"{w},{c}\n" for w, c in sorted(SMALL_COUNTS.items()))
    )
    data["commonness"] = data["folder"] / "commonness.parquet"
    write_commonness(data["words"], frequency, data["commonness"], n_common=20, width=10)
    index = load_word_index(data["words"])
    data["word_list"] = list(index.words)
    data["answers"] = list(index.answers)
    data["matrix"] = load_pattern_matrix(data["index"], data["words"]).full()
    data["answer_rows"] = index.answer_rows
    return data


@pytest.fixture(scope="module")
def small_merged(small, tmp_path_factory) -> dict:
    """Answers mode over all openers in three parts, plus the prior mode, merged."""
    folder = tmp_path_factory.mktemp("merged")
    n = len(small["word_list"])
    cuts = [0, 7, 30, n]
    parts = []
    for start, stop in zip(cuts[:-1], cuts[1:], strict=True):
        parts.append(folder / f"answers-{start}.parquet")
        write_opener_part(small["words"], small["index"], parts[-1], start=start, stop=stop)
    parts.append(folder / "prior.parquet")
    write_prior_part(small["words"], small["commonness"], parts[-1], top_k=6)
    merge_opener_parts(
        parts,
        folder / "openers.parquet",
        folder / "second_guesses.parquet",
        words_path=small["words"],
    )
    return {
        "parts": parts,
        "openers": pq.read_table(folder / "openers.parquet").to_pylist(),
        "second": pq.read_table(folder / "second_guesses.parquet").to_pylist(),
        "folder": folder,
    }


# --------------------------------------------------------------------------- small lists


def check_against_reference(reference: dict, opener_rows: list, second_rows: list) -> None:
    by_opener: dict[str, dict] = defaultdict(dict)
    for row in second_rows:
        by_opener[row["opener"]][row["pattern_id"]] = row
    for row in opener_rows:
        expected = reference[row["word"]]
        assert row["h1"] == pytest.approx(expected["h1"], abs=1e-9)
        assert row["h2_expected"] == pytest.approx(expected["h2"], abs=1e-9)
        assert row["two_step_total"] == pytest.approx(expected["total"], abs=1e-9)
        assert row["expected_left_after_two"] == pytest.approx(expected["left"], abs=1e-9)
        assert row["p_solved_by_two"] == pytest.approx(expected["solved"], abs=1e-12)
        assert row["n_buckets"] == len(expected["rows"])
        got = by_opener[row["word"]]
        assert sorted(got) == sorted(expected["rows"])
        for pattern, (size, q, second, score, is_candidate) in expected["rows"].items():
            actual = got[pattern]
            assert actual["bucket_size"] == size
            assert actual["bucket_probability"] == pytest.approx(q, abs=1e-12)
            assert (actual["second_guess"], actual["second_is_candidate"]) == (
                second,
                is_candidate,
            ), (row["word"], actual["pattern"])
            assert actual["second_entropy"] == pytest.approx(score, abs=1e-9)


def test_answers_mode_matches_brute_force_including_ties(small, small_merged):
    weight = {a: 1.0 for a in small["answers"]}
    reference = brute_force(small["word_list"], small["answers"], weight, small["word_list"])
    # The word list really exercises both tie rules.
    assert reference["_ties"]["candidate_beats_earlier_word"] > 0
    assert reference["_ties"]["earlier_word_among_non_candidates"] > 0
    rows = [r for r in small_merged["openers"] if r["mode"] == "answers"]
    second = [r for r in small_merged["second"] if r["mode"] == "answers"]
    assert sorted(r["word"] for r in rows) == sorted(small["word_list"])
    check_against_reference(reference, rows, second)
    # Ranks: by two_step_total, ties (within 1e-9) by word_id; the table is in rank order.
    assert [r["word"] for r in rows] == ranked(small["word_list"], reference)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))


def test_prior_mode_matches_brute_force(small, small_merged):
    table = pq.read_table(small["commonness"]).to_pylist()
    weight = {row["word"]: row["p_common"] for row in table}
    words = small["word_list"]
    # entropy_prior over every allowed word, computed here from the rules.
    prior = {o: entropy([sum(weight[a] for a in g) for g in split(o, words, weight).values()])
             for o in words}  # fmt: skip
    top = sorted(words, key=lambda w: (-prior[w], words.index(w)))[:6]
    reference = brute_force(words, words, weight, top)
    rows = [r for r in small_merged["openers"] if r["mode"] == "prior"]
    assert sorted(r["word"] for r in rows) == sorted(top)
    for row in rows:
        assert row["h1"] == pytest.approx(prior[row["word"]], abs=1e-9)
    second = [r for r in small_merged["second"] if r["mode"] == "prior"]
    check_against_reference(reference, rows, second)
    assert [r["word"] for r in rows] == ranked(top, reference, words)


def test_kernel_equals_numpy_baseline_and_exact_fallback(small, monkeypatch):
    matrix, answer_rows = small["matrix"], small["answer_rows"]
    solver = AnswerSolver(matrix, answer_rows, small["word_list"])
    unpruned = AnswerSolver(matrix, answer_rows, small["word_list"], use_bound=False)
    calls = []
    choose = openers._choose
    monkeypatch.setattr(openers, "_choose", lambda *a: calls.append(1) or choose(*a))
    for opener in range(matrix.shape[0]):
        fast = solver.solve(opener)
        plain = unpruned.solve(opener)
        squeezed = solver.solve(opener, records=1)  # tie lists overflow: plain rescoring
        slow = second_guesses_numpy(matrix, answer_rows, opener)
        for name in ("pattern_ids", "sizes", "second_ids", "second_is_candidate"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), (opener, name)
            assert np.array_equal(getattr(fast, name), getattr(plain, name)), (opener, name)
            assert np.array_equal(getattr(fast, name), getattr(squeezed, name)), (opener, name)
        for name in ("probabilities", "second_entropies", "expected_left", "solve_probabilities"):
            assert np.allclose(getattr(fast, name), getattr(slow, name), rtol=0, atol=1e-12)
    assert calls, "records=1 never overflowed, so the fallback went untested"


def test_prior_kernel_with_extreme_weights_and_tiny_tie_lists(small, monkeypatch):
    """Near-zero weights make a perfect split no better than others within the tolerance
    (no early stop); records=1 forces the plain rescoring. Both must match the rules."""
    words = small["word_list"]
    encoded = encode_words(words)
    weights = np.array([1e-12 if i % 3 == 0 else 1.0 + i / 7 for i in range(len(words))])
    weight = dict(zip(words, weights.tolist(), strict=True))
    chosen = [words.index(w) for w in ("salet", "crazy", "xylyl")]
    reference = brute_force(words, words, weight, [words[i] for i in chosen])
    calls = []
    choose = openers._choose
    monkeypatch.setattr(openers, "_choose", lambda *a: calls.append(1) or choose(*a))
    for records in (4, 1):
        calls.clear()
        for result in prior_second_guesses(encoded, weights, chosen, records=records):
            expected = reference[words[result.opener]]
            assert result.pattern_ids.tolist() == sorted(expected["rows"])
            got = [
                (words[g], bool(c))
                for g, c in zip(result.second_ids, result.second_is_candidate, strict=True)
            ]
            assert got == [(row[2], row[4]) for _, row in sorted(expected["rows"].items())]
            figures = opener_figures(result)
            assert figures.two_step_total == pytest.approx(expected["total"], abs=1e-9)
            assert figures.expected_left_after_two == pytest.approx(expected["left"], abs=1e-9)
    assert calls  # with records=1 the tie lists overflowed and the rescoring ran


def test_second_guess_row_groups_keep_an_opener_together(small, small_merged, monkeypatch):
    monkeypatch.setattr(openers, "SECOND_GUESS_ROW_GROUP", 40)
    out = small_merged["folder"] / "small-groups"
    merge_opener_parts(
        small_merged["parts"], out / "o.parquet", out / "s.parquet", words_path=small["words"]
    )
    meta = pq.ParquetFile(out / "s.parquet").metadata
    assert meta.num_row_groups > 3
    assert all(meta.row_group(i).num_rows <= 40 for i in range(meta.num_row_groups))
    rows = pq.read_table(out / "s.parquet").to_pylist()
    keys = [(r["mode"], r["opener_id"], r["pattern_id"]) for r in rows]
    assert keys == sorted(keys)
    # Sorted rows: one opener's rows sit in one row group or two neighbouring ones.
    groups: dict[tuple, set] = defaultdict(set)
    for position, (mode, opener, _) in enumerate(keys):
        groups[mode, opener].add(position // 40)
    assert all(max(g) - min(g) == len(g) - 1 <= 1 for g in groups.values())
    # And the statistics let a filtered read find them.
    wanted = [("mode", "=", "answers"), ("opener_id", "=", 5)]
    found = pq.read_table(out / "s.parquet", filters=wanted).to_pylist()
    assert found == [r for r in rows if (r["mode"], r["opener_id"]) == ("answers", 5)]


def test_same_inputs_same_bytes(small, small_merged, tmp_path):
    write_opener_part(small["words"], small["index"], tmp_path / "a.parquet", start=7, stop=30)
    assert (tmp_path / "a.parquet").read_bytes() == small_merged["parts"][1].read_bytes()
    write_prior_part(small["words"], small["commonness"], tmp_path / "p.parquet", top_k=6)
    assert (tmp_path / "p.parquet").read_bytes() == small_merged["parts"][-1].read_bytes()
    merge_opener_parts(
        small_merged["parts"], tmp_path / "o.parquet", tmp_path / "s.parquet",
        words_path=small["words"],
    )  # fmt: skip
    folder = small_merged["folder"]
    assert (tmp_path / "o.parquet").read_bytes() == (folder / "openers.parquet").read_bytes()
    assert (tmp_path / "s.parquet").read_bytes() == (folder / "second_guesses.parquet").read_bytes()


def test_merge_refuses_gaps_duplicates_and_foreign_parts(small, small_merged, tmp_path):
    parts = small_merged["parts"]
    out = (tmp_path / "o.parquet", tmp_path / "s.parquet")
    with pytest.raises(PipelineError, match="cover"):
        merge_opener_parts([parts[0], parts[2]], *out, words_path=small["words"])
    with pytest.raises(PipelineError, match="more than one part"):
        merge_opener_parts([*parts, parts[1]], *out, words_path=small["words"])
    other = build_data(tmp_path / "other", SMALL_GUESSES + SMALL_ANSWERS, SMALL_ANSWERS[:-1], 50)
    with pytest.raises(PipelineError, match="another word index"):
        merge_opener_parts(parts, *out, words_path=other["words"])
    with pytest.raises(PipelineError, match="within"):
        write_opener_part(small["words"], small["index"], tmp_path / "x", start=5, stop=999)
    assert not out[0].exists()


def test_kernel_handles_a_single_guess_and_answer(tmp_path):
    data = build_data(tmp_path, ["cigar"], ["cigar"], 4)
    index = load_word_index(data["words"])
    matrix = load_pattern_matrix(data["index"]).full()
    result = second_guesses(matrix, index.answer_rows, index.words, 0)
    figures = opener_figures(result)
    assert (figures.h1, figures.h2_expected, figures.p_solved_by_two) == (0.0, 0.0, 1.0)
    assert figures.expected_left_after_two == 0.0


# --------------------------------------------------------------------------- real data

GOOD = ["tarse", "salet", "trace", "crate", "slate", "soare", "roate", "raise"]
BAD = ["qajaq", "xylyl", "fuzzy", "immix"]


def independent_two_step(matrix: np.ndarray, answer_rows: np.ndarray, opener: int) -> tuple:
    """two_step_total and best second guesses by sorting in plain numpy (no kernel code).

    For each bucket, sort every guess's replies over the bucket; S = sum over runs of
    L log2 L follows from each element's position within its run.
    """
    row = matrix[opener]
    n = len(row)
    in_bucket = np.zeros(matrix.shape[0], dtype=bool)
    total_h2 = 0.0
    h1 = 0.0
    seconds = []
    for pattern in np.unique(row):
        members = np.flatnonzero(row == pattern)
        size = len(members)
        q = size / n
        h1 -= q * math.log2(q)
        if size == 1:
            seconds.append(int(answer_rows[members[0]]))
            continue
        ordered = np.sort(matrix[:, members], axis=1)
        position = np.broadcast_to(np.arange(size), ordered.shape)
        new_run = np.ones(ordered.shape, dtype=bool)
        new_run[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        run_start = np.maximum.accumulate(np.where(new_run, position, 0), axis=1)
        r = (position - run_start + 1).astype(np.float64)
        step = r * np.log2(r) - np.where(r > 1, (r - 1) * np.log2(np.maximum(r - 1, 1)), 0.0)
        scores = math.log2(size) - step.sum(axis=1) / size
        tied = scores >= scores.max() - TIE
        in_bucket[:] = False
        in_bucket[answer_rows[members]] = True
        pick = np.flatnonzero(tied & in_bucket)
        best = int(pick[0] if pick.size else np.flatnonzero(tied)[0])
        seconds.append(best)
        total_h2 += q * scores[best]
    return h1 + total_h2, seconds


@pytest.fixture(scope="module")
def real(mirror, tmp_path_factory) -> dict:
    allowed = (mirror / "allowed.txt").read_text().split()
    answers = (mirror / "answers.txt").read_text().split()
    return build_data(tmp_path_factory.mktemp("real"), allowed, answers, 4000)


@pytest.mark.mirror
def test_real_top_openers_against_independent_numpy(real, tmp_path):
    index = load_word_index(real["words"])
    matrix = load_pattern_matrix(real["index"], real["words"]).full()
    assert matrix.shape == (len(index.words), len(index.answer_rows))
    ids = {word: index.words.index(word) for word in GOOD + BAD}
    solver = AnswerSolver(matrix, index.answer_rows, index.words)
    results = {word: solver.solve(ids[word]) for word in GOOD + BAD}
    totals = {word: opener_figures(r).two_step_total for word, r in results.items()}
    ranked = sorted(totals, key=lambda w: (-totals[w], ids[w]))
    assert set(ranked[: len(GOOD)]) == set(GOOD)  # every good opener beats every bad one
    for word in ranked[:3]:
        total, seconds = independent_two_step(matrix, index.answer_rows, ids[word])
        assert totals[word] == pytest.approx(total, abs=1e-9), word
        assert results[word].second_ids.tolist() == seconds, word
    # A part file over a real word_id range holds exactly the kernel's results.
    start = ids["salet"] - 1
    part = tmp_path / "part.parquet"
    write_opener_part(real["words"], real["index"], part, start=start, stop=start + 3)
    rows = pq.read_table(part).to_pylist()
    salet = [r for r in rows if r["opener"] == "salet"]
    assert [r["second_guess_id"] for r in salet] == results["salet"].second_ids.tolist()
    assert salet[0]["two_step_total"] == pytest.approx(totals["salet"], abs=1e-12)
    assert {r["opener_id"] for r in rows} == {start, start + 1, start + 2}
