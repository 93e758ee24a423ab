"""The optimal and optimal_hard strategies in the benchmark stages: they play the trees the
optimal stage stored for the fixture (equal to tests.support.optimal_fixture's brute force) to the
recorded totals, and a stored tree that is not the games is refused, naming the file."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.artifacts import benchmark as store
from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts import parquet
from pipeline.core.errors import ArtifactError, PipelineError
from tests.stages.test_play_strategy import (
    ANSWERS,
    GREEN,
    WORDS,
    brute_force_optimum,
    games_of,
    run,
)
from tests.support.naive import least_totals
from tests.support.optimal_fixture import brute_force


@pytest.mark.parametrize(("name", "mode"), [("optimal", "normal"), ("optimal_hard", "hard")])
def test_optimal_strategies_play_the_best_proven_tree(solver, name, mode):
    """The total equals the stored tree's and the brute-force minimum over every opener and
    tree; its gap is 0; no heuristic of the mode does better; each game's guesses are the
    path of its answer through the stored tree."""
    best, opener = brute_force_optimum(mode)
    summary = pl.from_arrow(store.read_summary(solver.summary))
    row = summary.filter(pl.col("strategy") == name).row(0, named=True)
    tree = pl.from_arrow(optimal_artifact.read_tree(solver.optimal_trees, mode, opener))
    assert row["opener"] == opener
    assert (
        row["total_guesses"] == best == tree.filter(pl.col("node_id") == 0)["guesses_to_finish"][0]
    )
    assert row["gap_to_proven_optimum_total"] == 0 and row["gap_to_proven_optimum_mean"] == 0
    assert row["failures"] == 0
    same_mode = summary.filter(pl.col("mode") == mode)
    assert same_mode["total_guesses"].min() == best
    nodes = {(r["parent_id"], r["pattern_id"]): r for r in tree.iter_rows(named=True)}
    for game in games_of(solver.games).filter(pl.col("strategy") == name).iter_rows(named=True):
        at = nodes[(None, None)]
        for turn, (guess, reply) in enumerate(zip(game["guesses"], game["patterns"], strict=True)):
            assert (guess, at["depth"]) == (at["guess"], turn + 1)
            if reply != GREEN:
                at = nodes[(at["node_id"], reply)]
        assert game["n_guesses"] == at["depth"]


def test_an_optimal_opener_can_be_chosen(solver, tmp_path):
    opener = WORDS[5]
    out = run(solver, tmp_path, strategies=[{"name": "optimal_hard", "opener": opener}])
    [row] = store.read_summary(out["summary"]).to_pylist()
    total = brute_force(tuple(WORDS), tuple(ANSWERS), opener, True)[0]
    assert (row["opener"], row["total_guesses"]) == (opener, total)
    assert row["gap_to_proven_optimum_total"] == total - brute_force_optimum("hard")[0]


def test_an_opener_without_a_proven_tree_is_refused(solver, tmp_path):
    """An opener the file has no proven total for is an error naming optimal_openers.parquet
    (a bound is not an optimum), and a run without the files cannot play optimal."""
    openers = optimal_artifact.read_openers(solver.optimal_openers).to_pylist()
    for row in openers:
        if (row["mode"], row["opener"]) == ("hard", WORDS[1]):
            row["proven"] = False
    edited = tmp_path / "edited"
    edited.mkdir()
    paths = (edited / "optimal_openers.parquet", edited / "optimal_trees.parquet")
    trees = parquet.read_table(solver.optimal_trees, optimal_artifact.TREES_SCHEMA)
    optimal_artifact.write_optimal(
        pa.Table.from_pylist(openers, schema=optimal_artifact.OPENERS_SCHEMA), [trees], paths,
        inputs={"words": solver.words}, settings={},
    )  # fmt: skip
    strategies = [{"name": "optimal_hard", "opener": WORDS[1]}]
    with pytest.raises(ArtifactError, match="optimal_openers.parquet: no proven hard-mode total "
                       f"for opener '{WORDS[1]}'"):  # fmt: skip
        run(solver, tmp_path / "out", strategies=strategies,
            optimal_openers=paths[0], optimal_trees=paths[1])  # fmt: skip
    with pytest.raises(PipelineError, match="'optimal' needs the stored optimal trees"):
        run(solver, tmp_path / "none", strategies=[{"name": "optimal"}],
            optimal_openers=None, optimal_trees=None)  # fmt: skip


def test_a_mode_without_a_winning_tree_plays_no_games(solver, tmp_path, caplog):
    """When the search proved for every hard-mode opener that no tree wins every answer,
    optimal_hard plays no games (the summary has no row for it, the log says why) and the
    run goes on; optimal still plays its tree, and so does an opener of its own."""
    openers = optimal_artifact.read_openers(solver.optimal_openers).to_pylist()
    reason = "no tree wins every answer within 6 guesses in hard mode"
    no_tree = {"total_guesses": None, "mean_guesses": None, "proven": True, "lower_bound": None,
               "upper_bound": None, "reason": reason}  # fmt: skip
    for row in openers:
        if row["mode"] == "hard":
            row.update(no_tree)
    trees = parquet.read_table(solver.optimal_trees, optimal_artifact.TREES_SCHEMA)
    trees = trees.filter(pc.field("mode") == "normal")
    (tmp_path / "edited").mkdir()
    paths = (tmp_path / "edited" / "optimal_openers.parquet", tmp_path / "edited" / "trees.parquet")
    optimal_artifact.write_optimal(
        pa.Table.from_pylist(openers, schema=optimal_artifact.OPENERS_SCHEMA), [trees], paths,
        inputs={"words": solver.words}, settings={},
    )  # fmt: skip
    strategies = [{"name": "optimal"}, {"name": "optimal_hard"},
                  {"name": "optimal_hard", "label": "hard_own", "opener": WORDS[1]}]  # fmt: skip
    out = run(solver, tmp_path / "out", strategies=strategies,
              optimal_openers=paths[0], optimal_trees=paths[1])  # fmt: skip
    summary = store.read_summary(out["summary"]).to_pylist()
    assert [row["strategy"] for row in summary] == ["optimal"]
    assert summary[0]["total_guesses"] == brute_force_optimum("normal")[0]
    assert games_of(out["games"])["strategy"].unique().to_list() == ["optimal"]
    assert "optimal_hard: no tree of any opener wins every answer" in caplog.text
    assert f"hard_own: no tree of opener '{WORDS[1]}'" in caplog.text


def edited_trees(solver, folder: Path, edit) -> tuple[Path, Path]:
    """Copies of the optimal files, the best normal-mode tree's rows passed through edit."""
    best = brute_force_optimum("normal")[1]
    openers = optimal_artifact.read_openers(solver.optimal_openers)
    trees = parquet.read_table(solver.optimal_trees, optimal_artifact.TREES_SCHEMA).to_pylist()
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in trees:
        groups.setdefault((row["mode"], row["opener"]), []).append(row)
    groups[("normal", best)] = edit(groups[("normal", best)])
    tables = [
        pa.Table.from_pylist(rows, schema=optimal_artifact.TREES_SCHEMA) for rows in groups.values()
    ]
    folder.mkdir()
    paths = (folder / "optimal_openers.parquet", folder / "optimal_trees.parquet")
    optimal_artifact.write_optimal(
        openers, tables, paths, inputs={"words": solver.words}, settings={}
    )
    return paths


def drop_a_leaf_branch(rows: list[dict]) -> list[dict]:
    last = max(r["node_id"] for r in rows)  # depth-first order: the last node is a leaf
    return [r for r in rows if r["node_id"] != last]


def swap_two_replies(rows: list[dict]) -> list[dict]:
    children = [r for r in rows if r["parent_id"] == 0]
    first, second = children[0], children[1]
    first["pattern_id"], second["pattern_id"] = second["pattern_id"], first["pattern_id"]
    return rows


def wrong_reply(rows: list[dict]) -> list[dict]:
    used = {r["pattern_id"] for r in rows if r["parent_id"] == 0}
    parents = {r["parent_id"] for r in rows}
    leaf = next(r for r in rows if r["node_id"] not in parents and r["parent_id"] is not None)
    leaf["pattern_id"] = next(p for p in range(GREEN) if p not in used)
    return rows


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (drop_a_leaf_branch, "does not cover every answer"),
        (swap_two_replies, "answers reach it|does not cover"),
        (wrong_reply, "does not cover every answer|no answer reaches it"),
    ],
)
def test_a_tree_that_is_not_the_games_is_refused(solver, tmp_path, edit, problem):
    """A stored tree that misses an answer or stores a reply that is not the true feedback
    is an ArtifactError naming optimal_trees.parquet, and no games are written."""
    openers, trees = edited_trees(solver, tmp_path / "edited", edit)
    with pytest.raises(ArtifactError, match=f"optimal_trees.parquet: .*({problem})"):
        run(solver, tmp_path / "out", strategies=[{"name": "optimal"}],
            optimal_openers=openers, optimal_trees=trees)  # fmt: skip
    assert not list((tmp_path / "out" / "units").glob("*.parquet"))


def test_stored_totals_are_the_least_of_all_trees(solver):
    """The fixture's trees (branch and bound, tests.support.naive_advice) against a plain
    exhaustive recursion without bounds (tests.support.naive.least_totals): every normal-mode
    opener, and in hard mode (slower) the best proven opener and a few others; so the
    optimal rows' totals, which equal their trees', are the least any tree needs."""
    table = optimal_artifact.read_openers(solver.optimal_openers).to_pylist()
    stored = {(r["mode"], r["opener"]): r["total_guesses"] for r in table}
    normal = least_totals(WORDS, ANSWERS)
    assert {o: stored[("normal", o)] for o in WORDS} == normal
    summary = pl.from_arrow(store.read_summary(solver.summary))
    totals = dict(zip(summary["strategy"], summary["total_guesses"], strict=False))
    assert totals["optimal"] == min(normal.values())
    best_hard = brute_force_optimum("hard")[1]
    openers = [best_hard, *WORDS[:3]]
    hard = least_totals(WORDS, ANSWERS, hard=True, openers=openers)
    assert {o: stored[("hard", o)] for o in openers} == hard
    assert totals["optimal_hard"] == hard[best_hard]
