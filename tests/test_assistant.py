"""wordle-assist: remaining candidates and best next guesses against brute force.

A small artifact set is built in a temporary folder the way the pipeline builds it (word
index, commonness, chunked pattern matrix, entropy, and second guesses); every number
the assistant prints is checked against a plain-Python recomputation with
pipeline.patterns.feedback.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline import assistant
from pipeline.assistant import advise, load_artifacts, main
from pipeline.commonness import write_commonness
from pipeline.entropy import write_entropy
from pipeline.matrix import chunk_count, write_chunk_index, write_pattern_chunk
from pipeline.openers import merge_opener_parts, write_opener_part, write_prior_part
from pipeline.patterns import (
    encode_words,
    feedback,
    feedback_matrix,
    feedback_matrix_numpy,
    pattern_string,
)
from pipeline.words import load_word_index, write_word_index
from tests.conftest import REPO, real_mirror

# Repeated letters on both sides (abbey, eerie, geese, llama, mamma, speed, ...), anagrams
# (tarse, raise, arise, ...) and answers sharing most letters, so filters and ties bite.
ALLOWED = [
    "abbey", "abide", "added", "adieu", "aloft", "arise", "aroma", "array", "atoll", "audio",
    "awake", "eerie", "eater", "erase", "geese", "greet", "irate", "lever", "llama", "mamma",
    "nanny", "offer", "otter", "ozone", "raise", "ratio", "rebut", "salet", "sissy", "slate",
    "speed", "steel", "tarse", "teeth", "tiare", "trace", "crate", "cigar", "serve", "heath",
]  # fmt: skip
ANSWERS = [
    "abbey", "abide", "aloft", "arise", "aroma", "awake", "eerie", "geese", "greet", "irate",
    "lever", "otter", "raise", "rebut", "slate", "speed", "steel", "teeth", "trace", "crate",
    "cigar", "serve", "heath", "mamma",
]  # fmt: skip
COUNTS = {word: 1000 + 937 * i % 50000 for i, word in enumerate(ALLOWED)}
ALLOWED_SORTED = sorted(ALLOWED)  # word_id order
CHUNK_ROWS = 7  # 40 words: 6 chunks, so reading rows crosses chunks


def build_artifacts(folder: Path, *, square: bool = False) -> Path:
    """The artifacts the assistant reads, written by the pipeline's own functions."""
    folder.mkdir(parents=True)
    (folder / "allowed.txt").write_text("\n".join(ALLOWED) + "\n")
    (folder / "answers.txt").write_text("\n".join(ANSWERS) + "\n")
    (folder / "unigram_freq.csv").write_text(
        "word,count\n" + "".join(f"{word},{count}\n" for word, count in COUNTS.items())
    )
    words = folder / "words.parquet"
    write_word_index(folder / "allowed.txt", folder / "answers.txt", words)
    write_commonness(
        words, folder / "unigram_freq.csv", folder / "commonness.parquet", n_common=15, width=10
    )
    n_words = len(ALLOWED)
    for kind, name in [("answers", "patterns")] + ([("guesses", "patterns_square")] * square):
        chunks = []
        for chunk in range(chunk_count(n_words, CHUNK_ROWS)):
            chunks.append(folder / name / f"chunk-{chunk:04d}.npy.zst")
            write_pattern_chunk(
                words, chunks[-1], chunk=chunk, chunk_rows=CHUNK_ROWS, columns=kind, zstd_level=1
            )
        write_chunk_index(
            words, chunks, folder / name / "index.json", chunk_rows=CHUNK_ROWS, columns=kind
        )
    write_entropy(
        words,
        folder / "commonness.parquet",
        folder / "patterns" / "index.json",
        folder / "entropy.parquet",
        folder / "pattern_distribution.parquet",
    )
    return folder


def add_second_guesses(folder: Path) -> None:
    words, index = folder / "words.parquet", folder / "patterns" / "index.json"
    parts = [folder / "part-answers.parquet", folder / "part-prior.parquet"]
    write_opener_part(words, index, parts[0], start=0, stop=len(ALLOWED))
    write_prior_part(words, folder / "commonness.parquet", parts[1], top_k=5)
    merge_opener_parts(
        parts, folder / "openers.parquet", folder / "second_guesses.parquet", words_path=words
    )


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    folder = build_artifacts(tmp_path_factory.mktemp("assist") / "derived")
    add_second_guesses(folder)
    return folder


@pytest.fixture(scope="module")
def p_common(data) -> dict[str, float]:
    table = pq.read_table(data / "commonness.parquet", columns=["word", "p_common"])
    return dict(zip(table["word"].to_pylist(), table["p_common"].to_pylist(), strict=True))


# --------------------------------------------------------------------------- brute force


def consistent(pool: list[str], turns: list[tuple[str, str]]) -> list[str]:
    """Words of `pool` that give every guess its colours."""
    return [
        word
        for word in pool
        if all(pattern_string(feedback(guess, word), 5) == col for guess, col in turns)
    ]


def entropy_of(guess: str, candidates: list[str], weight: dict[str, float] | None) -> float:
    mass: dict[int, float] = defaultdict(float)
    for word in candidates:
        mass[feedback(guess, word)] += 1.0 if weight is None else weight[word]
    total = sum(mass.values())
    return -sum(m / total * math.log2(m / total) for m in mass.values() if m > 0)


def ranking(candidates: list[str], weight: dict[str, float] | None) -> list[tuple[str, float]]:
    """Every guess, best first: entropy; within 1e-9 candidates first, then word order."""
    scored = sorted((-entropy_of(g, candidates, weight), g) for g in ALLOWED)
    groups: list[list[tuple[float, str]]] = []
    for score, guess in scored:
        if groups and score - groups[-1][-1][0] < 1e-9:
            groups[-1].append((score, guess))
        else:
            groups.append([(score, guess)])
    ordered = []
    for group in groups:
        group.sort(key=lambda item: (item[1] not in candidates, ALLOWED_SORTED.index(item[1])))
        ordered += [(guess, -score) for score, guess in group]
    return ordered


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# --------------------------------------------------------------------------- the answers


def played(secret: str, *guesses: str) -> list[tuple[str, str]]:
    """The (guess, colours) turns of a game against `secret`."""
    return [(guess, pattern_string(feedback(guess, secret), 5)) for guess in guesses]


TURNS = [
    played("slate", "tarse"),
    played("steel", "slate"),
    played("geese", "eerie"),
    played("teeth", "tarse", "geese"),
    played("cigar", "mamma", "otter"),
    played("abbey", "added"),
]


@pytest.mark.parametrize("turns", TURNS)
def test_answers_mode_matches_brute_force(data, turns):
    artifacts = load_artifacts(data)
    advice = advise(artifacts, turns, "answers", top=len(ALLOWED))
    remaining = consistent(sorted(ANSWERS), turns)
    assert remaining, "the test case must leave candidates"
    assert [ALLOWED_SORTED[w] for w in advice.candidates] == remaining
    assert advice.bits == pytest.approx(math.log2(len(remaining)), abs=1e-12)
    assert advice.weighted_bits is None
    if len(remaining) > 1:
        expected = ranking(remaining, None)
        assert [ALLOWED_SORTED[w] for w in advice.best] == [g for g, _ in expected]
        np.testing.assert_allclose(advice.best_entropy, [h for _, h in expected], atol=1e-12)
        assert list(advice.best_is_candidate) == [g in remaining for g, _ in expected]


@pytest.mark.parametrize("turns", TURNS + [played("nanny", "tarse"), played("llama", "speed")])
def test_prior_mode_weights_every_consistent_word_by_p_common(data, p_common, turns):
    advice = advise(load_artifacts(data), turns, "prior", top=len(ALLOWED))
    remaining = consistent(ALLOWED_SORTED, turns)
    assert [ALLOWED_SORTED[w] for w in advice.candidates] == remaining
    total = sum(p_common[w] for w in remaining)
    weighted = -sum(p_common[w] / total * math.log2(p_common[w] / total) for w in remaining)
    assert advice.weighted_bits == pytest.approx(weighted, abs=1e-12)
    if len(remaining) > 1:
        expected = ranking(remaining, p_common)
        assert [ALLOWED_SORTED[w] for w in advice.best] == [g for g, _ in expected]
        np.testing.assert_allclose(advice.best_entropy, [h for _, h in expected], atol=1e-12)


def expected_output(
    data: Path, p_common: dict[str, float], turns: list[tuple[str, str]], top: int
) -> list[str]:
    """The exact answers-mode output after `turns`, from brute force and the stored tables."""
    remaining = consistent(sorted(ANSWERS), turns)
    lines = [
        "guesses: " + ", ".join(f"{guess} {colours}" for guess, colours in turns),
        f"{len(remaining)} of {len(ANSWERS)} answers remain: {math.log2(len(remaining)):.2f} bits",
    ]
    if len(remaining) <= 10:
        lines.append("remaining: " + ", ".join(remaining))
    if len(turns) == 1:
        stored = next(
            row
            for row in pq.read_table(data / "second_guesses.parquet").to_pylist()
            if (row["mode"], row["opener"]) == ("answers", turns[0][0])
            and row["pattern"] == turns[0][1]
        )
        could = "could" if stored["second_is_candidate"] else "cannot"
        lines.append(
            f"stored best second guess: {stored['second_guess']} "
            f"({stored['second_entropy']:.4f} bits, {could} be the answer)"
        )
    lines.append(f"best next guesses (entropy over the {len(remaining)} remaining answers):")
    lines.append("rank  word      bits  p_common  answer?")
    for rank, (guess, bits) in enumerate(ranking(remaining, None)[:top], 1):
        answer = "yes" if guess in remaining else "no"
        lines.append(f"{rank:>4}  {guess}  {bits:7.4f}  {p_common[guess]:8.4f}  {answer}")
    return lines


@pytest.mark.parametrize(
    "turns", [played("otter", "abide"), played("heath", "nanny"), played("crate", "nanny", "geese")]
)
def test_printed_answers_are_exact(data, p_common, capsys, turns):
    argv = [part.upper() if i % 2 else part for turn in turns for i, part in enumerate(turn)]
    argv[1] = argv[1].lower()  # colours in any case
    status, out, err = run(capsys, *argv, "--data", str(data), "--top", "4")
    assert (status, err) == (0, "")
    assert out.splitlines() == expected_output(data, p_common, turns, 4)


def test_stored_second_guess_is_the_tables_best(data):
    """The stored pick (openers) and the computed table (here) follow one tie rule."""
    second = pq.read_table(data / "second_guesses.parquet").to_pylist()
    artifacts = load_artifacts(data)
    checked = 0
    for row in second:
        if row["mode"] != "answers" or row["bucket_size"] < 2:
            continue
        advice = advise(artifacts, [(row["opener"], row["pattern"])], "answers", top=1)
        assert advice.stored is not None and advice.stored.word_id == row["second_guess_id"]
        assert ALLOWED_SORTED[advice.best[0]] == row["second_guess"]
        assert advice.best_entropy[0] == pytest.approx(row["second_entropy"], abs=1e-9)
        checked += 1
    assert checked > 100


def test_prior_mode_prints_both_measures(data, p_common, capsys):
    remaining = consistent(ALLOWED_SORTED, [("speed", "BBBBB")])
    assert 1 < len(remaining) <= 10
    status, out, _ = run(capsys, "--mode", "prior", "speed", "BBBBB", "--data", str(data))
    assert status == 0
    total = sum(p_common[w] for w in remaining)
    weighted = -sum(p_common[w] / total * math.log2(p_common[w] / total) for w in remaining)
    assert out.splitlines()[1] == (
        f"{len(remaining)} of {len(ALLOWED)} allowed words remain: "
        f"{math.log2(len(remaining)):.2f} bits ({weighted:.2f} bits weighted by p_common)"
    )
    shown = sorted(remaining, key=lambda w: -p_common[w])  # most common first
    assert out.splitlines()[2] == "remaining: " + ", ".join(
        f"{w} ({p_common[w]:.3f})" for w in shown
    )


def test_without_guesses_the_stored_ranks_are_listed(data, capsys):
    table = pq.read_table(data / "entropy.parquet").to_pylist()
    for mode, pool in (("answers", len(ANSWERS)), ("prior", len(ALLOWED))):
        status, out, _ = run(capsys, "--data", str(data), "--mode", mode, "--top", "4")
        assert status == 0
        lines = out.splitlines()
        assert lines[0].startswith(f"{pool} {'answers' if mode == 'answers' else 'allowed'}")
        assert f"entropy_{mode} of entropy.parquet" in lines[1]
        top = sorted(table, key=lambda row: row[f"rank_{mode}"])[:4]
        assert [line.split()[1] for line in lines[3:]] == [row["word"] for row in top]
        assert [float(line.split()[2]) for line in lines[3:]] == [
            round(row[f"entropy_{mode}"], 4) for row in top
        ]


def test_solved_and_single_candidate(data, capsys):
    status, out, _ = run(capsys, "raise", "GGGGG", "--data", str(data))
    assert (status, out.splitlines()[-1]) == (0, "solved: raise")
    turns = played("teeth", "tarse", "geese")
    assert consistent(sorted(ANSWERS), turns) == ["teeth"]
    status, out, _ = run(capsys, *[part for turn in turns for part in turn], "--data", str(data))
    assert out.splitlines()[1:] == ["1 of 24 answers remains: 0.00 bits", "the answer is teeth"]


def test_square_matrix_gives_the_same_prior_answer(tmp_path):
    folder = build_artifacts(tmp_path / "derived", square=True)
    turns = played("lever", "eerie", "otter")
    with_square = advise(load_artifacts(folder), turns, "prior", top=40)
    shutil.rmtree(folder / "patterns_square")
    without = advise(load_artifacts(folder), turns, "prior", top=40)
    assert np.array_equal(with_square.candidates, without.candidates)
    assert np.array_equal(with_square.best, without.best)


def test_numba_path_equals_numpy_path(data, monkeypatch):
    turns = [("audio", "BBBBB")]
    numpy_answer = advise(load_artifacts(data), turns, "prior", top=40)
    numpy_answers = advise(load_artifacts(data), turns, "answers", top=40)
    monkeypatch.setattr(assistant, "NUMPY_MAX_ELEMENTS", 0)
    numba_answer = advise(load_artifacts(data), turns, "prior", top=40)
    numba_answers = advise(load_artifacts(data), turns, "answers", top=40)
    for first, second in ((numpy_answer, numba_answer), (numpy_answers, numba_answers)):
        assert np.array_equal(first.best, second.best)
        np.testing.assert_allclose(first.best_entropy, second.best_entropy, atol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 7, 40, 121, 122, 300])
def test_both_numpy_entropy_ways_equal_brute_force(monkeypatch, n):
    """Sorting rows (few columns) and bincount (many) give the same entropies."""
    rng = np.random.default_rng(n)
    patterns = rng.integers(0, 243, size=(50, n)).astype(np.uint8)
    patterns[:, : n // 2] = rng.integers(0, 3, size=(50, n // 2))  # large buckets too
    weights = rng.random(n)
    weights[1::5] = 0.0  # zero-weight buckets add nothing
    weights /= weights.sum()
    for w in (None, weights):
        mass = [defaultdict(float) for _ in range(50)]
        for row in range(50):
            for column in range(n):
                mass[row][patterns[row, column]] += 1 / n if w is None else w[column]
        expected = [-sum(m * math.log2(m) for m in row.values() if m > 0) for row in mass]
        for block in (1 << 20, 7 * 243):  # one block, or blocks of a few rows
            monkeypatch.setattr(assistant, "_BLOCK_ELEMENTS", block)
            np.testing.assert_allclose(
                assistant._entropies_numpy(patterns, w, 243), expected, atol=1e-12
            )


def test_numpy_feedback_equals_the_kernel():
    words = ALLOWED + ["sassy", "asses", "esses", "array", "radar", "tweet", "ewers", "emcee"]
    encoded = encode_words(sorted(set(words)))
    assert np.array_equal(
        feedback_matrix_numpy(encoded, encoded), feedback_matrix(encoded, encoded)
    )
    six = encode_words(["banana", "ananas", "bandit", "nnnaaa"])  # uint16 ids
    assert np.array_equal(feedback_matrix_numpy(six, six), feedback_matrix(six, six))


def test_small_jobs_import_neither_numba_nor_pyarrow_dataset(data):
    code = (
        "import sys\nfrom pipeline.assistant import main\n"
        f"assert main(['tarse', 'BYBBG', '--data', {str(data)!r}]) == 0\n"
        f"assert main(['--mode', 'prior', 'tarse', 'BYBBG', '--data', {str(data)!r}]) == 0\n"
        "print(sorted(m for m in ('numba', 'pyarrow.dataset') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["tarse"], 2, "give each guess followed by its colours (e.g. tarse BYBBG): 'tarse' has"),
        (["tarse", "BYBBG", "slate"], 2, "'slate' has no colours"),
        (["tarse", "BYXBG"], 2, "colours 'BYXBG' of guess 1 ('tarse') must be letters B"),
        (["tarse", "BYBB"], 2, "colours 'BYBB' of guess 1 ('tarse') must have 5 letters"),
        (["tarse", "BYBBG", "zzzzz", "BBBBB"], 2, "guess 2 'zzzzz' is not in the word list"),
        (["tars", "BYBB"], 2, "guess 1 'tars' is not in the word list"),
        (["--top", "0"], 2, "argument --top: expected a positive whole number, got '0'"),
        (["--mode", "hard"], 2, "argument --mode: invalid choice: 'hard'"),
        (["tarse", "GGGGG"], 1, "no answer is consistent with tarse GGGGG: check the colours"),
        (
            ["--mode", "prior", "tarse", "BBBBB", "slate", "GGGGG"],
            1,
            "no allowed word is consistent with tarse BBBBB, slate GGGGG",
        ),
    ],
)
def test_usage_and_data_errors_are_one_line(data, capsys, argv, status, message):
    code, out, err = run(capsys, *argv, "--data", str(data))
    assert code == status
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("wordle-assist: ")


@pytest.mark.parametrize(
    ("remove", "argv", "named"),
    [
        ("entropy.parquet", [], "entropy.parquet is missing: run the pipeline"),
        ("words.parquet", [], "words.parquet is missing: run the pipeline"),
        ("patterns", ["tarse", "BYBBG"], "index.json is missing: run the pipeline"),
        (
            "patterns/chunk-0003.npy.zst",
            ["tarse", "BYBBG"],
            "chunk-0003.npy.zst: chunk 3 is missing",
        ),
        ("", ["tarse", "BYBBG"], "chunk-0000.npy.zst: chunk 0 is altered or truncated"),
    ],
)
def test_missing_or_damaged_artifacts(data, tmp_path, capsys, remove, argv, named):
    folder = tmp_path / "derived"
    shutil.copytree(data, folder)
    target = folder / remove
    if not remove:  # damage a chunk instead
        chunk = folder / "patterns" / "chunk-0000.npy.zst"
        chunk.write_bytes(chunk.read_bytes()[:-3])
    elif target.is_dir():
        shutil.rmtree(target)
    else:
        target.unlink()
    code, out, err = run(capsys, *argv, "--data", str(folder))
    assert (code, out) == (1, "")
    assert named in err and len(err.strip().splitlines()) == 1


def test_missing_data_folder(tmp_path, capsys):
    code, _, err = run(capsys, "--data", str(tmp_path / "nowhere"))
    assert code == 1
    assert "nowhere: no such folder of artifacts: run the pipeline" in err


def test_stale_artifact_is_refused(data, tmp_path, capsys):
    folder = tmp_path / "derived"
    shutil.copytree(data, folder)
    # a word index with fewer answers: every artifact built from the first one is stale
    (folder / "fewer.txt").write_text("\n".join(ANSWERS[:-1]) + "\n")
    write_word_index(folder / "allowed.txt", folder / "fewer.txt", folder / "words.parquet")
    code, _, err = run(capsys, "--data", str(folder))
    assert code == 1
    assert "entropy.parquet was built from another words.parquet" in err


# --------------------------------------------------------------------------- the real data


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    """The built real artifacts in data/derived, or else the same built from the mirror."""
    folder = REPO / "data" / "derived"
    needed = ["words.parquet", "entropy.parquet", "patterns/index.json"]
    if all((folder / name).is_file() for name in needed):
        return folder
    mirror = real_mirror()
    if mirror is None:
        pytest.skip("no built artifacts in data/derived and no real data mirror")
    folder = tmp_path_factory.mktemp("real")
    words = folder / "words.parquet"
    write_word_index(mirror / "allowed.txt", mirror / "answers.txt", words)
    commonness = folder / "commonness.parquet"
    write_commonness(words, mirror / "unigram_freq.csv", commonness, n_common=3000, width=10)
    rows = 4000
    chunks = [
        folder / "patterns" / f"chunk-{chunk:04d}.npy.zst"
        for chunk in range(chunk_count(len(load_word_index(words).words), rows))
    ]
    for chunk, path in enumerate(chunks):
        write_pattern_chunk(words, path, chunk=chunk, chunk_rows=rows)
    index = folder / "patterns" / "index.json"
    write_chunk_index(words, chunks, index, chunk_rows=rows)
    write_entropy(
        words, commonness, index, folder / "entropy.parquet", folder / "distribution.parquet"
    )
    return folder


def test_real_data_tarse_bybbg(real, capsys):
    index = load_word_index(real / "words.parquet")
    wanted = [("tarse", "BYBBG")]
    remaining = [
        answer
        for answer in index.answers
        if pattern_string(feedback("tarse", answer), 5) == "BYBBG"
    ]
    status, out, _ = run(capsys, "tarse", "BYBBG", "--data", str(real))
    assert status == 0
    lines = out.splitlines()
    n = len(remaining)
    assert lines[1] == f"{n} of {len(index.answers)} answers remain: {math.log2(n):.2f} bits"
    advice = advise(load_artifacts(real), wanted, "answers", top=3)
    assert [index.words[w] for w in advice.candidates] == remaining
    # the best guess's entropy, by brute force over the remaining answers
    best = index.words[advice.best[0]]
    assert advice.best_entropy[0] == pytest.approx(entropy_of(best, remaining, None), abs=1e-12)
    stored = [line for line in lines if line.startswith("stored best second guess: ")]
    if (real / "second_guesses.parquet").is_file():
        assert stored and stored[0].split()[4] == best
    prior = advise(load_artifacts(real), wanted, "prior", top=1)
    assert [index.words[w] for w in prior.candidates] == [
        word for word in index.words if pattern_string(feedback("tarse", word), 5) == "BYBBG"
    ]


def test_real_numpy_feedback_equals_the_kernel(real):
    encoded = encode_words(load_word_index(real / "words.parquet").words)
    sample = encoded[np.random.default_rng(7).choice(len(encoded), 200, replace=False)]
    assert np.array_equal(feedback_matrix_numpy(encoded, sample), feedback_matrix(encoded, sample))
