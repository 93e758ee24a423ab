"""wordle-assist reads only through the artifact layer: a missing, damaged, unsealed or
stale artifact is one line naming it (exit 1), never a wrong answer. On the real lists:
tests/real_data/test_assistant.py."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from pipeline.analysis.history.archive import history_table, parse_history
from pipeline.artifacts.history import write_history
from pipeline.commands.assistant.cli import main
from pipeline.stages.build_word_index import build_word_index
from tests.support.artifact_set import write_raw_inputs
from tests.support.assistant_fixture import ALLOWED, ANSWERS
from tests.support.fixtures import history_json


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def flip_a_bit(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))


def damage(target: Path, how: str) -> None:
    if how == "flip":
        flip_a_bit(target)
    elif how == "truncate":
        target.write_bytes(target.read_bytes()[:-3])
    elif target.is_dir():
        shutil.rmtree(target)
    else:
        target.unlink()


TURNS = ["nanny", "BBBBB"]
PRIOR = ["--mode", "prior"]


@pytest.mark.parametrize(
    ("victim", "how", "argv", "named"),
    [
        ("words.parquet", "delete", [], "words.parquet is missing: run the pipeline"),
        ("words.parquet", "truncate", [], "words.parquet: damaged or replaced"),
        ("entropy.parquet", "delete", [], "entropy.parquet is missing: run the pipeline"),
        ("entropy.parquet", "flip", TURNS, "entropy.parquet: damaged or replaced"),
        ("entropy.parquet.seal.json", "delete", [], "entropy.parquet: has no seal"),
        ("score_model.parquet", "delete", PRIOR, "score_model.parquet is missing: run the"),
        ("score_model.parquet", "flip", [*PRIOR, *TURNS], "score_model.parquet: damaged or"),
        ("patterns", "delete", TURNS, "index.json is missing: run the pipeline"),
        ("patterns/chunk-0001.npy.zst", "flip", TURNS, "chunk-0001.npy.zst: chunk 1 is altered"),
        ("optimal_openers.parquet", "flip", [], "optimal_openers.parquet: damaged"),
        ("optimal_trees.parquet", "flip", ["slate", "BBYBB"], "optimal_trees.parquet: damaged"),
        ("optimal_trees.parquet", "delete", ["slate", "BBYBB"], None),  # searched instead
    ],
)
def test_missing_or_damaged_artifacts_are_named(
    folders, tmp_path, capsys, victim, how, argv, named
):
    copy = tmp_path / "derived"
    shutil.copytree(folders[1], copy)
    damage(copy / victim, how)
    code, out, err = run(capsys, *argv, "--data", str(copy))
    if named is None:
        assert code == 0 and "proven" in out
        assert f"note: {victim} is missing: no stored optimal tree is followed" in out
        return
    assert (code, out) == (1, "")
    assert named in err, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("wordle-assist: ")


@pytest.mark.parametrize("hard", [False, True])
def test_a_missing_tree_file_is_said_in_json_and_changes_the_flag(folders, tmp_path, capsys, hard):
    """With optimal_trees.parquet deleted the answer may change (no tree to follow), but
    never silently: the JSON says which optional file was missing and that no tree was
    read; with the file there, nothing is said."""
    mode = ["--hard"] if hard else []
    argv = ["slate", "BBYBB", *mode, "--json"]
    status, out, _ = run(capsys, *argv, "--data", str(folders[1]))
    whole = json.loads(out)
    assert status == 0 and whole["optimal_trees"] is True and whole["missing_files"] == []
    copy = tmp_path / "derived"
    shutil.copytree(folders[1], copy)
    (copy / "optimal_trees.parquet").unlink()
    status, out, _ = run(capsys, *argv, "--data", str(copy))
    document = json.loads(out)
    assert status == 0
    assert document["optimal_trees"] is False
    assert document["missing_files"] == ["optimal_trees.parquet"]
    assert any(note.startswith("optimal_trees.parquet is missing") for note in document["notes"])


@pytest.mark.parametrize(
    ("victim", "how", "named"),
    [
        ("patterns", "delete", "index.json is missing: run the pipeline"),
        ("patterns/chunk-0002.npy.zst", "delete", "chunk-0002.npy.zst: chunk 2 is missing"),
        ("patterns/chunk-0001.npy.zst", "flip", "chunk-0001.npy.zst: chunk 1 is altered"),
    ],
)
def test_play_reads_the_checked_matrix(folders, tmp_path, capsys, monkeypatch, victim, how, named):
    """A session reads the stored guess x answer matrix at start-up: every chunk checked."""
    copy = tmp_path / "derived"
    shutil.copytree(folders[0], copy)
    damage(copy / victim, how)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "play", "--data", str(copy))
    assert (code, out) == (1, "")
    assert named in err and len(err.strip().splitlines()) == 1


def test_stale_artifacts_are_refused(folders, tmp_path, capsys):
    """A new word index (one answer fewer): every artifact built from the old one is
    stale, and named."""
    root = tmp_path / "set"
    source = folders[0].parent.parent.parent
    assert (source / "data" / "raw").is_dir()  # an artifact set's root, nothing bigger
    shutil.copytree(source, root)
    derived = root / "data" / "derived" / folders[0].name
    raw = write_raw_inputs(
        root / "data" / "raw",
        {
            "allowed": (root / "data" / "raw" / "allowed.txt").read_bytes(),
            "answers": "\n".join(ANSWERS[:-1]).encode(),
        },
    )
    build_word_index(
        allowed=raw["allowed"], answers=[raw["answers"]], words=derived / "words.parquet", until=""
    )
    code, _, err = run(capsys, "--data", str(derived))
    assert code == 1
    assert "entropy.parquet: stale (built from another" in err and "words.parquet" in err
    assert len(err.strip().splitlines()) == 1


def test_first_line_says_how_many_played_answers_the_edition_covers(folders, tmp_path, capsys):
    """With shared/history.parquet beside the edition's folder the first line counts the
    played days whose answer the edition's list holds; without it nothing is said."""
    root = tmp_path / "derived"
    shutil.copytree(folders[1], root / "tiny")
    days = parse_history(history_json([*ANSWERS[:3], "nanny"]).encode(), "h.json")
    table = history_table(days, frozenset(ALLOWED), {"tiny": frozenset(ANSWERS)})
    write_history(table, root / "shared" / "history.parquet", inputs={}, until="")
    status, out, _ = run(capsys, "--data", str(root), "--top", "1")
    assert status == 0
    assert out.splitlines()[0] == "edition: tiny; covers 3 of 4 played answers"
    status, out, _ = run(capsys, "--data", str(root), "--json", "--top", "1")
    assert json.loads(out)["played_answers"] == {"covered": 3, "played": 4, "until": "2021-06-22"}
    (root / "shared" / "history.parquet").unlink()
    status, out, _ = run(capsys, "--data", str(root), "--top", "1")
    assert status == 0 and out.splitlines()[0] == "edition: tiny"
