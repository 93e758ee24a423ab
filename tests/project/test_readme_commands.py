"""Every shell block of the README and of the guides that continue from its pipeline run
(docs/operating.md, docs/assistant.md, docs/benchmarks.md), run as written, in the order a
user meets them.

The checkout sits beside `../shared/wordle-data`, as on the development machine, but that
folder holds a small fixture (the tiny test lists plus every word the README's own
examples play, so each example game has answers), and `config.yaml` pins the fixture's
sha256s the way the default config pins the real lists. The test command is not run (it
would run this test); it must be exactly what `.ci/run` runs.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
import yaml

from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from tests.support.fixtures import (
    FIXTURE_ALLOWED,
    FIXTURE_ANSWERS,
    FIXTURE_COUNTS,
    REPO,
    history_days,
    history_json,
)
from tests.support.workflow_helpers import FIXTURE_CONFIG, copy_source, fixture_env

README = REPO / "README.md"
# The README, then the guides whose commands run in the folder its pipeline run built.
GUIDES = tuple(REPO / "docs" / name for name in ("operating.md", "assistant.md", "benchmarks.md"))
DOCUMENTS = (README, *GUIDES)
TEST_COMMAND_MARK = "pytest"
COLOURS = re.compile(r"^[BYGbyg]+$")


def blocks_of(document: Path) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", document.read_text(), flags=re.DOTALL)


def shell_blocks() -> list[str]:
    return [block for document in DOCUMENTS for block in blocks_of(document)]


def documentation_text() -> str:
    """The README and every page of docs/: the words the fixture lists must hold."""
    pages = sorted((REPO / "docs").glob("*.md"))
    return "\n".join(page.read_text() for page in (README, *pages))


def example_games() -> list[list[tuple[str, str]]]:
    """The (guess, colours) pairs of every `wordle-assist` call in the documents' blocks."""
    games = []
    for block in shell_blocks():
        for line in block.splitlines():
            if "wordle-assist" not in line:
                continue
            words = line.split("#", 1)[0].split()
            tokens = [t for t in words[1:] if not t.startswith("-")]
            pairs = [
                (tokens[i].lower(), tokens[i + 1].upper())
                for i in range(len(tokens) - 1)
                if re.fullmatch(r"[a-z]{5}", tokens[i]) and COLOURS.match(tokens[i + 1])
            ]
            games.append(pairs)
    return games


def colours_id(colours: str) -> int:
    value = {"B": 0, "Y": 1, "G": 2}
    return sum(value[c] * 3**i for i, c in enumerate(colours))


def fitting(game: list[tuple[str, str]], codes: np.ndarray) -> np.ndarray:
    """Which encoded words give every reply of the game."""
    fits = np.ones(len(codes), dtype=bool)
    for guess, colours in game:
        row = feedback_matrix(encode_words([guess]), codes, engine="jit")[0]
        fits &= row == colours_id(colours)
    return fits


def any_fitting_string(game: list[tuple[str, str]]) -> str:
    """The first five-letter string (not necessarily a word) that fits the game."""
    every = np.indices((26,) * 5).reshape(5, -1).T.astype(np.uint8)
    first = int(np.flatnonzero(fitting(game, every))[0])
    return "".join(chr(97 + int(code)) for code in every[first])


def readme_lists() -> tuple[list[str], list[str]]:
    """Fixture lists grown by the documentation's words: every five-letter word it mentions
    is allowed, and those that fit an example game are answers too; a game that no such
    word fits gets the first string of letters that fits it."""
    words = set(re.findall(r"\b[a-z]{5}\b", documentation_text()))
    mentioned = {word for word in words if not COLOURS.match(word)}
    pool = sorted(mentioned | set(FIXTURE_ANSWERS))
    codes = encode_words(pool)
    answers = set(FIXTURE_ANSWERS)
    for game in filter(None, example_games()):
        fits = {word for word, fit in zip(pool, fitting(game, codes), strict=True) if fit}
        answers |= fits or {any_fitting_string(game)}
    return sorted(set(FIXTURE_ALLOWED) | mentioned | answers), sorted(answers)


def write_shared_mirror(folder: Path) -> dict[str, str]:
    """The fixture mirror in the real mirror's layout (with `orig/`); the sha256s to pin."""
    allowed, answers = readme_lists()
    folder.mkdir(parents=True)
    (folder / "allowed.txt").write_text("\n".join(allowed) + "\n")
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    counts = {**{w: 10 + i for i, w in enumerate(allowed)}, **FIXTURE_COUNTS}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    (folder / "unigram_freq.csv").write_text(
        "word,count\n" + "".join(f"{w},{c}\n" for w, c in rows)
    )
    (folder / "orig").mkdir()
    # the "original" lists: a superset, so the README's later example games still fit
    (folder / "orig" / "allowed.txt").write_text(
        "\n".join(sorted({*allowed, "zesty", "zonal"})) + "\n"
    )
    (folder / "orig" / "answers.txt").write_text("\n".join(sorted({*answers, "zonal"})) + "\n")
    (folder / "history").mkdir()  # the dated answers (every one an allowed word)
    played = history_days(allowed, answers)[0]
    (folder / "history" / "wordle_solutions.json").write_text(history_json(played))
    # the extended answer list: the answers and a few more allowed words
    (folder / "nyt20230701").mkdir()
    later = sorted({*answers, *allowed[:3]})
    (folder / "nyt20230701" / "answers.txt").write_text("\n".join(later) + "\n")
    return {
        source: hashlib.sha256((folder / path).read_bytes()).hexdigest()
        for source, path in MIRROR_PATHS.items()
    }


# The word lists of the default editions, the dated answers, and where the real mirror
# keeps them.
MIRROR_PATHS = {
    "allowed": "allowed.txt",
    "answers": "answers.txt",
    "answers_nyt2023": "nyt20230701/answers.txt",
    "allowed_orig": "orig/allowed.txt",
    "answers_orig": "orig/answers.txt",
    "history": "history/wordle_solutions.json",
}


def pinned_config(pins: dict[str, str]) -> dict:
    """The default config's shape (network sources, pinned lists), on the fixture."""
    return {
        "sources": {
            name: {
                "kind": "url",
                "url": f"https://example.invalid/{name}.txt",
                "sha256": pins[name],
                "mirror_path": path,
            }
            for name, path in MIRROR_PATHS.items()
        },
        "commonness": {"n_common": 5, "width": 10},
        # Few jobs, as in FIXTURE_CONFIG (each costs a process start-up, and the README's
        # blocks build the fixture three times): 5 pattern chunks, not 45, and that
        # config's opener, solver and optimal splits.
        "patterns": {"chunk_rows": 64},
        **{key: FIXTURE_CONFIG[key] for key in ("openers", "solver", "optimal")},
    }


def test_the_test_command_is_what_ci_runs():
    tests = [block for block in shell_blocks() if TEST_COMMAND_MARK in block]
    assert len(tests) == 1 and tests[0] in blocks_of(README)
    ci_lines = (REPO / ".ci" / "run").read_text().strip().splitlines()
    assert tests[0].strip() == ci_lines[-1].strip()


def test_every_guide_with_shell_blocks_is_run():
    """A page of docs/ with commands to run is one of GUIDES, so none goes untested."""
    with_commands = {page for page in (REPO / "docs").glob("*.md") if blocks_of(page)}
    assert with_commands == set(GUIDES)
    assert all(blocks_of(guide) for guide in GUIDES)


def test_the_readme_games_are_fixture_games():
    allowed, answers = readme_lists()
    games = [game for game in example_games() if game]
    assert games and set(FIXTURE_ANSWERS) < set(answers) <= set(allowed)
    codes = encode_words(answers)
    for game in games:
        assert fitting(game, codes).any(), game


@pytest.mark.slow
def test_every_readme_shell_block_runs_as_written(built_checkout, tmp_path):
    """The blocks never read `built_checkout`; asking for it runs them after the shared
    fixture build, whose compiled numba kernels they load from the run's cache
    (tests/conftest.py) instead of compiling them beside it."""
    project = tmp_path / "work" / "project"
    pins = write_shared_mirror(tmp_path / "work" / "shared" / "wordle-data")
    copy_source(project)
    for name in ("pyproject.toml", "README.md", "LICENSE", "benchmarks"):
        source = REPO / name
        if source.is_dir():
            subprocess.run(["cp", "-r", str(source), str(project / name)], check=True)
        else:
            (project / name).write_bytes(source.read_bytes())
    (project / "config.yaml").write_text(yaml.safe_dump(pinned_config(pins)))
    blocks = [block for block in shell_blocks() if TEST_COMMAND_MARK not in block]
    assert len(blocks) >= 5 and len(blocks_of(README)) >= 3
    for number, block in enumerate(blocks):
        result = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", block],
            cwd=project,
            capture_output=True,
            text=True,
            env=fixture_env(),
            timeout=1800,
        )
        output = f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        assert result.returncode == 0, f"shell block {number}:\n{block}\n{output}"
    derived = project / "data" / "derived"
    assert (derived / "datapackage.json").is_file() and (project / "report.html").is_file()
