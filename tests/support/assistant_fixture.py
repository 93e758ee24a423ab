"""A small artifact set for the assistant's tests, built by the stage functions
(tests.support.artifact_set) from a word list with repeated letters and anagrams, plus optimal
trees found by brute force (tests.support.naive_advice) and written through
pipeline.artifacts.optimal."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.artifacts import optimal
from pipeline.core.wordle import pattern_string
from tests.support.artifact_set import Settings, shared_artifact_set
from tests.support.locks import build_lock
from tests.support.naive_advice import optimal_tree

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
WORDS = sorted(ALLOWED)  # word_id order
COUNTS = {word: 1000 + 937 * i % 50000 for i, word in enumerate(ALLOWED)}
BENCHMARK_OPENERS = 8  # the opener benchmark plays the top 8 of the two-step ranking
TREE_OPENERS = {"normal": ["slate", "raise", "tarse", "cigar", "nanny"], "hard": ["slate", "teeth"]}
STRATEGIES = [
    {"name": "greedy_entropy"},
    {"name": "commonness"},
    {"name": "most_parts"},
    {"name": "greedy_entropy_hard"},
    {"name": "opener_benchmark", "top": BENCHMARK_OPENERS},
]


def tree_tables(mode: str, opener: str) -> tuple[dict, pa.Table]:
    """The summary row and node table of the brute-force optimal tree of (mode, opener)."""
    total, nodes = optimal_tree(WORDS, ANSWERS, opener, hard=mode == "hard")
    solved = [n["depth"] for n in nodes if n["solves"]]
    summary = {
        "mode": mode, "opener": opener, "opener_id": WORDS.index(opener),
        "total_guesses": total, "mean_guesses": total / len(ANSWERS), "proven": True,
        "lower_bound": total, "upper_bound": total,
        **{f"n_{k}": solved.count(k) for k in range(1, 7)},
        "max_guesses": max(solved), "deepest_answer": None, "nodes": len(nodes),
        "cpu_seconds": 0.0, "reason": None, "partition_bound": None, "second_level_bound": None,
        "in_top": False, "top_rank": None,
    }  # fmt: skip
    table = pa.table(
        {
            "mode": [mode] * len(nodes),
            "opener": [opener] * len(nodes),
            "node_id": [n["node_id"] for n in nodes],
            "parent_id": [n["parent_id"] for n in nodes],
            "pattern_id": [n["pattern_id"] for n in nodes],
            "pattern": [
                None if n["pattern_id"] is None else pattern_string(n["pattern_id"], 5)
                for n in nodes
            ],  # fmt: skip
            "guess": [n["guess"] for n in nodes],
            "guess_id": [WORDS.index(n["guess"]) for n in nodes],
            "n_answers": [n["n_answers"] for n in nodes],
            "depth": [n["depth"] for n in nodes],
            "guesses_to_finish": [n["guesses_to_finish"] for n in nodes],
        }
    )
    return summary, table


def add_optimal(folder: Path, openers: dict[str, list[str]] = TREE_OPENERS) -> None:
    """Write optimal_openers.parquet and optimal_trees.parquet for these (mode, opener)s."""
    rows, trees = [], []
    for mode, words in openers.items():
        for opener in words:
            summary, table = tree_tables(mode, opener)
            rows.append(summary)
            trees.append(table)
    openers_table = pa.Table.from_pylist(rows, schema=optimal.OPENERS_SCHEMA)
    optimal.write_optimal(
        openers_table,
        trees,
        (folder / optimal.OPENERS_FILE, folder / optimal.TREES_FILE),
        inputs={"words": folder / "words.parquet"},
        settings={"test": json.dumps(openers)},
    )


def copy_data(source: Path, destination: Path, *, trees: bool) -> Path:
    """A copy of the built artifacts, with the fixture's optimal files (which replace the
    optimal stage's), or without any."""
    shutil.copytree(source, destination)
    for name in (optimal.OPENERS_FILE, optimal.TREES_FILE):
        for path in (destination / name, destination / f"{name}.seal.json"):
            path.unlink(missing_ok=True)
    if trees:
        add_optimal(destination)
    return destination


def built_data(tmp_path_factory) -> tuple[Path, Path]:
    """(artifacts without optimal files, a copy with them), built once per test session
    by the stage functions (tests.support.artifact_set) and shared by every xdist worker: read
    them, never change them."""
    settings = Settings(n_common=15, strategies=STRATEGIES)
    built = shared_artifact_set(
        tmp_path_factory, "assistant", allowed=ALLOWED, answers=ANSWERS, counts=COUNTS,
        settings=settings, until="benchmark",
    )  # fmt: skip
    base = built.root.parent
    plain_root, with_trees = base / "assistant-plain", base / "assistant-trees"
    plain = plain_root / built.derived.relative_to(built.root)  # raw inputs beside it
    done = base / "assistant-trees.done"
    with build_lock(base / "assistant-trees.lock"):
        if not done.is_file():
            for folder in (plain_root, with_trees):
                shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(built.root, plain_root)
            shutil.rmtree(plain)
            copy_data(built.derived, plain, trees=False)
            copy_data(built.derived, with_trees, trees=True)
            done.write_text("built\n")
    return plain, with_trees


def curve_points(folder: Path, strategy: str) -> list[tuple[float, float]]:
    """(mean_bits, mean_guesses_left) of one strategy of score_model.parquet, read plainly."""
    import pyarrow.parquet as pq

    table = pq.read_table(folder / "score_model.parquet").to_pylist()
    return [(r["mean_bits"], r["mean_guesses_left"]) for r in table if r["strategy"] == strategy]


def consistent(pool, turns) -> list[str]:
    """The words of `pool` that give every (guess, colours) of `turns`, naively."""
    from tests.support.naive import feedback

    return [w for w in pool if all(pattern_string(feedback(g, w), 5) == c for g, c in turns)]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """wordle-assist's main() in process: (status, stdout, stderr), never a traceback."""
    from pipeline.commands.assistant.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# The fixtures of the assistant's test modules (registered in tests/conftest.py).


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> tuple[Path, Path]:
    """(artifacts without optimal files, a copy with the fixture's trees)."""
    return built_data(tmp_path_factory)


@pytest.fixture(scope="module")
def plain(folders) -> Path:
    return folders[0]


@pytest.fixture(scope="module")
def trees(folders) -> Path:
    return folders[1]
