"""pipeline.stages.openers and pipeline.artifacts.openers: the part jobs, the prior job (its
openers from entropy.parquet's rank_prior), the merge, and the real lists."""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.analysis.openers.tables import opener_figures
from pipeline.analysis.openers.two_step import answer_second_guesses
from pipeline.artifacts import entropy as entropy_artifact
from pipeline.artifacts import openers as store
from pipeline.artifacts import parquet
from pipeline.artifacts.patterns import read_pattern_matrix
from pipeline.artifacts.seal import read_seal, seal_path
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import ArtifactError, PipelineError
from pipeline.kernels.opener_search.count_search import CountSearch
from pipeline.stages.build_word_index import build_word_index
from pipeline.stages.merge_second_guesses import merge_second_guesses
from pipeline.stages.rank_opener_part import rank_opener_part
from pipeline.stages.rank_openers import rank_openers
from pipeline.stages.rank_prior_openers import rank_prior_openers
from tests.analysis.openers.test_two_step import CUTS, PRIOR_TOP_K, small_lists, small_rankings
from tests.support.artifact_set import (
    EDITION,
    OPENER_ANSWERS,
    OPENER_COUNTS,
    OPENER_GUESSES,
    Settings,
    build_artifact_set,
    copy_artifact_set,
    real_artifact_set,
    write_raw_inputs,
)
from tests.support.naive import sorted_two_step


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The opener tests' lists through the stages: three answers-mode parts (dealt out,
    where the analysis test cuts ranges) and the prior part of the top 6 by rank_prior."""
    artifacts = build_artifact_set(
        tmp_path_factory.mktemp("small"),
        allowed=OPENER_GUESSES + OPENER_ANSWERS,
        answers=OPENER_ANSWERS,
        counts=OPENER_COUNTS,
        settings=Settings(n_common=20, chunk_rows=16, parts=3, prior_top_k=PRIOR_TOP_K),
        until="openers",
    )
    n_words = len(artifacts.words_list)
    for number, path in enumerate(artifacts.answer_parts):  # every third word_id
        ids = store.read_part(path)["opener_id"].to_pylist()
        assert sorted(set(ids)) == list(range(number, n_words, 3))
    return artifacts


def answer_part(artifacts, path: Path, number: int, parts: int, threads: int = 1) -> Path:
    rank_opener_part(
        words=artifacts.words,
        patterns=artifacts.matrix(),
        part=path,
        number=number,
        parts=parts,
        threads=threads,
    )
    return path


def prior_part(artifacts, path: Path, top_k: int, threads: int = 1, square_entropy=None) -> Path:
    rank_prior_openers(
        allowed=artifacts.raw_file("allowed"),
        commonness=artifacts.commonness,
        square_entropy=square_entropy or artifacts.square_entropy,
        part=path,
        prior_top_k=top_k,
        threads=threads,
    )
    return path


def rank(words: Path, parts: list[Path], folder: Path) -> Path:
    """rank_openers on the parts: folder/openers.parquet."""
    rank_openers(words=words, parts=parts, openers=folder / "openers.parquet")
    return folder / "openers.parquet"


def merge(words: Path, parts: list[Path], folder: Path) -> Path:
    """merge_second_guesses on the parts: folder/second_guesses.parquet."""
    merge_second_guesses(words=words, parts=parts, second_guesses=folder / "second_guesses.parquet")
    return folder / "second_guesses.parquet"


READERS_OF_PARTS = [rank, merge]  # the two stages that read the part files


def merged(artifacts, parts: list[Path], folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return rank(artifacts.words, parts, folder), merge(artifacts.words, parts, folder)


def test_the_stages_write_what_the_analysis_computes(small):
    """Whatever the part boundaries, the merged tables are the analysis's merge (whose
    numbers tests/analysis/openers/test_two_step.py checks against brute force)."""
    expected = small_rankings(small_lists())
    index = read_word_index(small.words)
    openers = store.read_openers(small.openers, index)
    assert openers.equals(parquet.conform(expected["tables"][0], store.OPENERS_SCHEMA))
    second = parquet.read_table(small.second_guesses, store.SECOND_GUESSES_SCHEMA)
    assert second.equals(parquet.conform(expected["tables"][1], store.SECOND_GUESSES_SCHEMA))
    assert CUTS == [0, 7, 30]  # the analysis cut ranges, the stages dealt: same tables


def test_the_prior_part_takes_the_top_openers_of_rank_prior(small, tmp_path):
    index = read_word_index(small.words)
    entropy = entropy_artifact.read_entropy(small.entropy, index)
    rank_prior = entropy["rank_prior"].to_numpy()
    top = sorted(np.argsort(rank_prior)[:PRIOR_TOP_K].tolist())
    part = store.read_part(small.prior_part)
    assert sorted(set(part["opener_id"].to_pylist())) == top
    assert parquet.read_provenance(small.prior_part)["config"]["top_k"] == PRIOR_TOP_K
    # An entropy_prior that says otherwise (here: negated) is what the prior job follows.
    square = parquet.read_table(small.square_entropy, entropy_artifact.SQUARE_ENTROPY_SCHEMA)
    negated = pa.array(-square["entropy_prior"].to_numpy())
    edited = square.set_column(
        square.schema.get_field_index("entropy_prior"), "entropy_prior", negated
    )
    other = tmp_path / "square_entropy.parquet"
    entropy_artifact.write_square_entropy(edited, other, inputs={"commonness": small.commonness})
    part = store.read_part(prior_part(small, tmp_path / "prior.parquet", 3, square_entropy=other))
    bottom = sorted(np.argsort(rank_prior)[-3:].tolist())
    assert sorted(set(part["opener_id"].to_pylist())) == bottom
    # more openers asked for than there are words: every word, once
    part = store.read_part(prior_part(small, tmp_path / "all.parquet", 500))
    assert sorted(set(part["opener_id"].to_pylist())) == list(range(len(index.words)))


def test_same_inputs_same_bytes_whatever_the_threads(small, tmp_path):
    again = answer_part(small, tmp_path / "a.parquet", 1, small.parts, threads=2)
    assert again.read_bytes() == small.answer_parts[1].read_bytes()
    again = prior_part(small, tmp_path / "p.parquet", PRIOR_TOP_K, threads=2)
    assert again.read_bytes() == small.prior_part.read_bytes()
    out = merged(small, [*small.answer_parts, small.prior_part], tmp_path / "merged")
    assert out[0].read_bytes() == small.openers.read_bytes()
    assert out[1].read_bytes() == small.second_guesses.read_bytes()


def test_one_part_or_three_give_the_same_bytes(small, tmp_path):
    """The merged files record the parts' inputs, not the parts: the split changes no
    byte of them. Their seals name the parts too (so a rebuilt part makes them stale)."""
    whole = answer_part(small, tmp_path / "whole.parquet", 0, 1, threads=2)
    assert whole.read_bytes() != small.answer_parts[0].read_bytes()
    folder = small.openers.parent  # the seals record inputs relative to the file's folder
    outputs = (folder / "openers-whole.parquet", folder / "second_guesses-whole.parquet")
    parts = [whole, small.prior_part]
    rank_openers(words=small.words, parts=parts, openers=outputs[0])
    merge_second_guesses(words=small.words, parts=parts, second_guesses=outputs[1])
    for out, built in zip(outputs, (small.openers, small.second_guesses), strict=True):
        assert out.read_bytes() == built.read_bytes()
        upstream = ["allowed", "commonness", "patterns", "square_entropy", "words"]
        assert sorted(read_seal(out).inputs) == sorted([*upstream, "part_0000", "part_0001"])
        assert len(read_seal(built).inputs) == len(upstream) + len(small.answer_parts) + 1
        for role in upstream:
            assert read_seal(out).inputs[role] == read_seal(built).inputs[role]
        assert read_seal(out).inputs["part_0000"]["path"].endswith(whole.name)
        out.unlink()
        seal_path(out).unlink()


def test_second_guess_row_groups_keep_an_opener_together(small, tmp_path, monkeypatch):
    monkeypatch.setattr(store, "SECOND_GUESS_ROW_GROUP", 40)
    out = merged(small, [*small.answer_parts, small.prior_part], tmp_path / "groups")
    meta = pq.ParquetFile(out[1]).metadata
    assert meta.num_row_groups > 3
    assert all(meta.row_group(i).num_rows <= 40 for i in range(meta.num_row_groups))
    rows = pq.read_table(out[1]).to_pylist()
    keys = [(r["mode"], r["opener_id"], r["pattern_id"]) for r in rows]
    assert keys == sorted(keys)
    # Sorted rows: one opener's rows sit in one row group or two neighbouring ones.
    groups: dict[tuple, set] = defaultdict(set)
    for position, (mode, opener, _) in enumerate(keys):
        groups[mode, opener].add(position // 40)
    assert all(max(g) - min(g) == len(g) - 1 <= 1 for g in groups.values())
    # read_second_guesses reads only the row groups whose statistics admit the opener.
    read = []
    original = parquet.read_table
    monkeypatch.setattr(
        parquet, "read_table", lambda *a, **k: read.append(k.get("row_groups")) or original(*a, **k)
    )
    found = store.read_second_guesses(out[1], "answers", 5).to_pylist()
    assert found == [r for r in rows if (r["mode"], r["opener_id"]) == ("answers", 5)]
    holding = {position // 40 for position, key in enumerate(keys) if key[:2] == ("answers", 5)}
    assert len(found) > 1 and 1 <= len(holding) <= 2
    assert holding <= set(read[0]) and len(read[0]) < meta.num_row_groups / 2
    assert store.read_second_guesses(out[1], "prior", 5).num_rows == 0  # not a prior opener


@pytest.mark.parametrize("read_parts", READERS_OF_PARTS)
def test_merge_refuses_gaps_duplicates_and_bad_part_numbers(small, tmp_path, read_parts):
    parts = [*small.answer_parts, small.prior_part]
    with pytest.raises(PipelineError, match="cannot (rank|merge) the openers parts: .*cover"):
        read_parts(small.words, [parts[0], parts[2], parts[3]], tmp_path)
    with pytest.raises(PipelineError, match="is in two parts"):
        read_parts(small.words, [*parts, parts[1]], tmp_path)
    with pytest.raises(PipelineError, match="part 3 does not exist among 3 parts"):
        answer_part(small, tmp_path / "x.parquet", 3, 3)
    assert list(tmp_path.iterdir()) == []  # nothing half-written


@pytest.mark.parametrize("read_parts", READERS_OF_PARTS)
def test_parts_of_a_changed_word_index_are_refused(small, tmp_path, read_parts):
    """A part is sealed with the words it was built from: after the word list changes
    (here one answer fewer, the same guesses), the merge refuses it as stale."""
    copy = tmp_path / "copy"
    shutil.copytree(small.root, copy)
    raw = write_raw_inputs(
        tmp_path / "raw",
        {
            "allowed": "\n".join(OPENER_GUESSES + OPENER_ANSWERS).encode(),
            "answers": "\n".join(OPENER_ANSWERS[:-1]).encode(),
        },
    )
    words = copy / "data" / "derived" / EDITION / "words.parquet"
    build_word_index(allowed=raw["allowed"], answers=[raw["answers"]], words=words, until="")
    parts = sorted((copy / "data" / "work" / EDITION / "opener_parts").glob("*.parquet"))
    with pytest.raises(ArtifactError, match=r"answers-0.parquet: stale .*words"):
        read_parts(words, parts, tmp_path)


@pytest.mark.parametrize("read_parts", READERS_OF_PARTS)
def test_a_prior_part_of_another_allowed_list_is_refused(small, tmp_path, read_parts):
    """The prior part is the allowed list's, shared by its editions: it is merged only into
    an index built from the same allowed list (as the two seals record it; the raw list
    itself need not be at hand, as with remote storage)."""
    other = build_artifact_set(
        tmp_path / "other",
        allowed=OPENER_GUESSES[:-1] + OPENER_ANSWERS,
        answers=OPENER_ANSWERS,
        counts=OPENER_COUNTS,
        settings=Settings(n_common=20, chunk_rows=16, parts=3, prior_top_k=PRIOR_TOP_K),
        until="openers",
    )
    copy = copy_artifact_set(small, tmp_path / "copy")
    copy.raw_file("allowed").unlink()  # the check reads seals only
    (tmp_path / "out").mkdir()
    read_parts(copy.words, [*copy.answer_parts, copy.prior_part], tmp_path / "out")
    (tmp_path / "refused").mkdir()
    with pytest.raises(ArtifactError, match=r"prior.parquet: built from another allowed list"):
        read_parts(copy.words, [*copy.answer_parts, other.prior_part], tmp_path / "refused")
    assert list((tmp_path / "refused").iterdir()) == []  # nothing half-written


def test_a_single_guess_and_answer(tmp_path):
    artifacts = build_artifact_set(
        tmp_path,
        allowed=["cigar"],
        answers=["cigar"],
        counts={"cigar": 5},
        settings=Settings(n_common=1, parts=1),
        until="openers",
    )
    rows = store.read_openers(artifacts.openers, read_word_index(artifacts.words)).to_pylist()
    assert [(r["mode"], r["word"], r["rank"]) for r in rows] == [
        ("answers", "cigar", 1),
        ("prior", "cigar", 1),
    ]
    for row in rows:
        assert (row["h1"], row["h2_expected"], row["p_solved_by_two"]) == (0.0, 0.0, 1.0)
        assert (row["expected_left_after_two"], row["n_buckets"]) == (0.0, 1)


# --- the real lists -------------------------------------------------------------------------

GOOD = ["tarse", "salet", "trace", "crate", "slate", "soare", "roate", "raise"]
BAD = ["qajaq", "xylyl", "fuzzy", "immix"]


@pytest.mark.mirror
def test_real_top_openers_against_independent_numpy(real_set, tmp_path):
    index = read_word_index(real_set.words)
    matrix = read_pattern_matrix(real_set.matrix(), index, real_set.words, columns="answers").full()
    ids = {word: index.words.index(word) for word in GOOD + BAD}
    search = CountSearch(matrix, index.answer_rows, index.encoded)
    results = {word: answer_second_guesses(search, ids[word]) for word in GOOD + BAD}
    totals = {word: opener_figures(r)["two_step_total"] for word, r in results.items()}
    ranked = sorted(totals, key=lambda w: (-totals[w], ids[w]))
    assert set(ranked[: len(GOOD)]) == set(GOOD)  # every good opener beats every bad one
    assert ranked[:2] == ["tarse", "slate"]
    for word in ranked[:3]:
        total, seconds = sorted_two_step(matrix, index.answer_rows, ids[word])
        assert totals[word] == pytest.approx(total, abs=1e-9), word
        assert results[word].second_ids.tolist() == seconds, word
    # A part job of real word_ids (every parts-th) holds exactly the search's results.
    parts = len(index.words) // 3
    number = ids["salet"] % parts
    part = answer_part(real_set, tmp_path / "part.parquet", number, parts, threads=2)
    rows = store.read_part(part).to_pylist()
    salet = [r for r in rows if r["opener"] == "salet"]
    assert [r["second_guess_id"] for r in salet] == results["salet"].second_ids.tolist()
    assert salet[0]["two_step_total"] == pytest.approx(totals["salet"], abs=1e-12)
    assert {r["opener_id"] for r in rows} == set(range(number, len(index.words), parts))


@pytest.mark.mirror
@pytest.mark.slow
def test_real_two_step_rankings(mirror, tmp_path_factory):
    """The whole openers stage on the real lists: every opener (minutes of CPU; no other
    test builds the real set this far, so it is this test's own)."""
    real_set = real_artifact_set(tmp_path_factory, mirror, until="openers")
    index = read_word_index(real_set.words)
    table = store.read_openers(real_set.openers, index).to_pylist()
    answers = [r for r in table if r["mode"] == "answers"]
    prior = [r for r in table if r["mode"] == "prior"]
    assert len(answers) == 14855 and len(prior) == 100
    assert [r["word"] for r in answers[:5]] == ["tarse", "slate", "slane", "reast", "salet"]
    assert [r["word"] for r in prior[:3]] == ["tares", "tales", "salet"]
    assert pq.ParquetFile(real_set.second_guesses).metadata.num_rows == 1_291_617
    tarse = answers[0]
    assert round(tarse["h1"], 4) == 5.9490
    assert tarse["two_step_total"] > answers[1]["two_step_total"] + 1e-9
    # the prior openers are the top 100 by entropy_prior
    ranks = entropy_artifact.read_entropy(real_set.entropy, index, ["rank_prior"])["rank_prior"]
    top = set(np.argsort(ranks.to_numpy())[:100].tolist())
    assert {r["word_id"] for r in prior} == top


@pytest.mark.parametrize("read_parts", READERS_OF_PARTS)
def test_parts_of_another_word_index_are_refused(small, tmp_path, read_parts):
    """Parts built from another words.parquet (one answer fewer, the same guesses) are
    never merged against this one, even where their own inputs are intact."""
    raw = write_raw_inputs(
        tmp_path / "raw",
        {
            "allowed": "\n".join(OPENER_GUESSES + OPENER_ANSWERS).encode(),
            "answers": "\n".join(OPENER_ANSWERS[:-1]).encode(),
        },
    )
    other = tmp_path / "words.parquet"
    build_word_index(allowed=raw["allowed"], answers=[raw["answers"]], words=other, until="")
    assert read_word_index(other).words == read_word_index(small.words).words
    with pytest.raises(ArtifactError, match="answers-0.parquet: built from another words.parquet"):
        read_parts(other, [*small.answer_parts, small.prior_part], tmp_path)
    assert not (tmp_path / "openers.parquet").exists()
    assert not (tmp_path / "second_guesses.parquet").exists()
