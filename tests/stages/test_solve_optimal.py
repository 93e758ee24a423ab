"""pipeline.stages.solve_optimal and merge_optimal on the fixture's artifact set: the
stored trees are valid and optimal (a brute-force minimum over all trees), the merge is
deterministic, and bad openers are one-line errors."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import pytest

from pipeline.analysis.optimal.tables import best_opener, select_openers, subtree_sums
from pipeline.artifacts import optimal as store
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import PipelineError
from pipeline.kernels.optimal_search import TREE_FIELDS
from pipeline.stages.merge_optimal import merge_optimal
from pipeline.stages.solve_optimal import solve_optimal
from tests.support.artifact_set import Settings, optimal_jobs, shared_artifact_set
from tests.support.optimal_reference import BruteForce
from tests.support.tree_check import check_tree


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    return shared_artifact_set(tmp_path_factory, "fixture")


def tree_arrays(tree) -> dict[str, np.ndarray]:
    """A stored tree as the arrays tests/support/tree_check.py reads (-1 for the root's nulls)."""
    columns = {
        "node_id": tree["node_id"],
        "parent_id": tree["parent_id"].fill_null(-1),
        "pattern": tree["pattern_id"].fill_null(-1),
        "guess": tree["guess_id"],
        "n_answers": tree["n_answers"],
        "depth": tree["depth"],
    }
    return {name: columns[name].to_numpy() for name in TREE_FIELDS}


def test_every_stored_tree_is_valid_and_totals_its_row(artifacts):
    rows = store.read_openers(artifacts.optimal_openers).to_pylist()
    words = list(artifacts.words_list)
    answers = sorted(_answers(artifacts))
    # certified by default: a row for every word in both modes, the ranking's top 20 proven
    assert {(r["mode"], r["opener"]) for r in rows} == {(m, w) for m in store.MODES for w in words}
    assert set(optimal_jobs(artifacts)) <= {(r["mode"], r["opener"]) for r in rows if r["proven"]}
    for row in rows:
        if row["total_guesses"] is None:
            continue
        tree = store.read_tree(artifacts.optimal_trees, row["mode"], row["opener"])
        total = check_tree(
            tree_arrays(tree), words, answers, hard=row["mode"] == "hard", max_guesses=6
        )
        assert row["proven"] and total == row["total_guesses"]
        assert row["lower_bound"] == row["upper_bound"] == total
        assert row["mean_guesses"] == total / len(answers)
        assert sum(row[f"n_{k}"] for k in range(1, 7)) == len(answers)
        assert row["max_guesses"] == max(tree["depth"].to_pylist())
        assert tree["guess"][0].as_py() == row["opener"]
        assert tree["guesses_to_finish"][0].as_py() == total
        assert row["deepest_answer"] in answers


def _answers(artifacts) -> tuple[str, ...]:
    return read_word_index(artifacts.words).answers


def test_totals_equal_a_brute_force_minimum(artifacts):
    words = list(artifacts.words_list)
    answers = sorted(_answers(artifacts))
    table = store.read_openers(artifacts.optimal_openers)
    for hard in (False, True):
        brute = BruteForce(words, answers, hard)
        mode = table.filter(pc.equal(table["mode"], "hard" if hard else "normal")).to_pylist()
        for row in mode:
            assert row["total_guesses"] == brute.opener(row["opener_id"], 6), row


def test_guesses_to_finish_sums_each_subtree():
    parent = np.array([-1, 0, 1, 1, 0])
    n_answers = np.array([5, 3, 1, 1, 1])
    assert subtree_sums(parent, n_answers).tolist() == [11, 5, 1, 1, 1]


def test_the_best_opener_is_the_least_proven_total_of_its_mode():
    modes = ["normal", "normal", "normal", "hard", "normal", "normal"]
    openers = ["crate", "salet", "tarse", "salet", "trace", "alert"]
    totals = [7926, 7920, 7920, 8097, 7800, None]
    proven = [True, True, True, True, False, True]
    # trace's 7800 is not proven and alert has no total; salet and tarse tie at 7920,
    # and the spelling breaks the tie
    assert best_opener(modes, openers, totals, proven, mode="normal") == ("salet", 7920)
    assert best_opener(modes, openers, totals, proven, mode="hard") == ("salet", 8097)
    assert best_opener(modes, openers, totals, proven, mode="ultrahard") is None


def test_an_opener_without_a_tree_in_time_is_a_proven_null_row(artifacts, tmp_path):
    paths = {"summary": tmp_path / "s.parquet", "tree": tmp_path / "t.parquet"}
    opener = artifacts.words_list[0]
    solve_optimal(
        words=artifacts.words, patterns=artifacts.matrix(), mode="hard", openers=[opener],
        max_guesses=2, **paths,
    )  # fmt: skip
    (row,) = store.read_part_summary(paths["summary"]).to_pylist()
    assert row["proven"] and row["total_guesses"] is None and row["mean_guesses"] is None
    assert "no tree wins every answer within 2 guesses" in row["reason"]
    assert store.read_part_tree(paths["tree"]).num_rows == 0


def test_a_job_of_several_openers_writes_the_rows_of_one_job_each(artifacts, tmp_path):
    """The split into jobs changes no row: a job of three openers writes the summary rows
    and tree nodes that three jobs of one opener write, in the job's order."""
    openers = [opener for mode, opener in optimal_jobs(artifacts) if mode == "hard"][:3]
    parts = []
    for name, chosen in [("all", openers), *[(o, [o]) for o in openers]]:
        paths = {"summary": tmp_path / f"{name}.s.parquet", "tree": tmp_path / f"{name}.t.parquet"}
        solve_optimal(
            words=artifacts.words, patterns=artifacts.matrix(), mode="hard", openers=chosen,
            max_guesses=6, **paths,
        )  # fmt: skip
        parts.append((store.read_part_summary(paths["summary"]).to_pylist(),
                      store.read_part_tree(paths["tree"]).to_pylist()))  # fmt: skip
    (rows, nodes), singles = parts[0], parts[1:]
    assert [row["opener"] for row in rows] == openers and all(row["proven"] for row in rows)
    assert rows == [row for part, _ in singles for row in part]
    assert nodes == [node for _, part in singles for node in part]
    assert len({node["opener"] for node in nodes}) == 3


def solved_jobs(artifacts) -> list[tuple[str, str]]:
    """(mode, job name) of every solve_optimal part on disk (the first jobs and those of
    the lowest bounds)."""
    parts = sorted((artifacts.work / "optimal").glob("*/*.summary.parquet"))
    return [(p.parent.name, p.name.split(".")[0]) for p in parts if p.parent.name in store.MODES]


def merge_into(artifacts, folder: Path, jobs, screen) -> tuple[bytes, bytes]:
    folder.mkdir()
    out = {"optimal_openers": folder / "o.parquet", "optimal_trees": folder / "t.parquet"}
    merge_optimal(
        words=artifacts.words,
        summaries=[artifacts.optimal_part(m, o, "summary") for m, o in jobs],
        trees=[artifacts.optimal_part(m, o, "tree") for m, o in jobs],
        screen_summaries=[artifacts.screen_part(m, p, "summary") for m, p in screen],
        screen_trees=[artifacts.screen_part(m, p, "tree") for m, p in screen],
        bounds=[artifacts.work / "optimal" / f"bounds-{m}.parquet" for m in store.MODES],
        top=artifacts.settings.optimal_top,
        certify=True,
        max_guesses=artifacts.settings.max_guesses,
        **out,
    )
    return out["optimal_openers"].read_bytes(), out["optimal_trees"].read_bytes()


def test_the_merge_is_deterministic_bytes_in_any_part_order(artifacts, tmp_path):
    jobs = solved_jobs(artifacts)
    screen = [(m, p) for m in store.MODES for p in range(artifacts.settings.screen_parts)]
    shuffled = jobs[:]
    random.Random(5).shuffle(shuffled)
    first = merge_into(artifacts, tmp_path / "a", jobs, screen)
    assert merge_into(artifacts, tmp_path / "b", shuffled, screen[::-1]) == first
    assert first == (artifacts.optimal_openers.read_bytes(), artifacts.optimal_trees.read_bytes())
    table = store.read_openers(artifacts.optimal_openers)
    keys = list(zip(table["mode"].to_pylist(), table["opener"].to_pylist(), strict=True))
    assert keys == sorted(keys)


def test_one_row_group_per_tree(artifacts):
    handle = store.parquet.open_file(artifacts.optimal_trees, store.TREES_SCHEMA)
    table = store.read_openers(artifacts.optimal_openers)
    assert handle.metadata.num_row_groups == sum(
        t is not None for t in table["total_guesses"].to_pylist()
    )
    mode, opener = optimal_jobs(artifacts)[-1]
    tree = store.read_tree(artifacts.optimal_trees, mode, opener)
    assert set(tree["opener"].to_pylist()) == {opener} and tree["node_id"][0].as_py() == 0


def test_an_unknown_opener_is_a_config_error(artifacts, tmp_path):
    words = artifacts.words_list
    with pytest.raises(PipelineError, match=r"^config: optimal\.openers: 'xyzzy' is not a word"):
        select_openers(words, [0, 1], 2, ["xyzzy"])
    assert select_openers(words, [3, 1], 2, [words[1], words[0]]) == [words[3], words[1], words[0]]
    assert select_openers(words, [], "all", []) == list(words)
    with pytest.raises(PipelineError, match=r"^config: optimal\.openers: 'xyzzy'"):
        solve_optimal(
            words=artifacts.words, patterns=artifacts.matrix(), mode="normal",
            openers=[artifacts.words_list[0], "xyzzy"],
            max_guesses=6, summary=tmp_path / "s.parquet", tree=tmp_path / "t.parquet",
        )  # fmt: skip


@pytest.fixture(scope="module")
def top_three(tmp_path_factory):
    settings = Settings(optimal_top=3, screen_parts=2)
    return shared_artifact_set(tmp_path_factory, "top-three", settings=settings, until="optimal")


@pytest.mark.parametrize("mode", store.MODES)
def test_the_certified_top_is_the_brute_force_top(top_three, mode):
    """With K = 3 most words are bounded or screened, not proven outright: the rows marked
    in_top are exactly the words whose brute-force optimum is at most the third best, and
    every other row's lower bound lies between that total and its optimum."""
    words = list(top_three.words_list)
    answers = sorted(_answers(top_three))
    brute = BruteForce(words, answers, mode == "hard")
    optimum = {w: brute.opener(i, 6) for i, w in enumerate(words)}
    limit = sorted(t for t in optimum.values() if t != float("inf"))[2]
    table = store.read_openers(top_three.optimal_openers)
    rows = table.filter(pc.equal(table["mode"], mode)).to_pylist()
    assert {r["opener"] for r in rows} == set(words)
    assert {r["opener"] for r in rows if r["in_top"]} == {
        w for w, t in optimum.items() if t <= limit
    }
    for row in rows:
        best = optimum[row["opener"]]
        if row["in_top"]:
            assert row["total_guesses"] == best
            assert row["top_rank"] == 1 + sum(t < best for t in optimum.values())
        elif row["proven"]:
            assert row["total_guesses"] == (None if best == float("inf") else best)
        else:
            assert limit < row["lower_bound"] <= best
        if row["partition_bound"] is not None:
            assert row["partition_bound"] <= (row["second_level_bound"] or best) <= best
    assert sum(not r["proven"] for r in rows) > 0, "some words must be left unproven"


@pytest.fixture(scope="module")
def no_tree(tmp_path_factory):
    settings = Settings(optimal_top=3, screen_parts=2, max_guesses=1)
    return shared_artifact_set(tmp_path_factory, "no-tree", settings=settings, until="optimal")


def test_a_mode_with_no_winning_opener_has_an_empty_top_list(no_tree):
    """One guess cannot win every answer: every word's row proves it (by a search or by
    its bound), none is in the top list, and the stage completes."""
    rows = store.read_openers(no_tree.optimal_openers).to_pylist()
    assert len(rows) == 2 * len(no_tree.words_list)
    for row in rows:
        assert row["proven"] and row["total_guesses"] is None and not row["in_top"], row
        assert "no tree wins every answer" in row["reason"]


@pytest.fixture(scope="module")
def every_opener(tmp_path_factory):
    settings = Settings(optimal_top="all", screen_parts=2)
    return shared_artifact_set(tmp_path_factory, "every-opener", settings=settings,
                               until="optimal")  # fmt: skip


def test_top_all_proves_every_word_and_lists_every_one_with_a_tree(every_opener, artifacts):
    rows = store.read_openers(every_opener.optimal_openers).to_pylist()
    assert len(rows) == 2 * len(every_opener.words_list)
    assert all(row["proven"] for row in rows)
    assert all(row["in_top"] == (row["total_guesses"] is not None) for row in rows)
    # the default run's certified rows agree with the all-proven run
    default = {
        (r["mode"], r["opener"]): r
        for r in store.read_openers(artifacts.optimal_openers).to_pylist()
    }
    for row in rows:
        if default[row["mode"], row["opener"]]["proven"]:
            assert default[row["mode"], row["opener"]]["total_guesses"] == row["total_guesses"]
