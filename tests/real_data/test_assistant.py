"""wordle-assist on the real lists: the README's example, run as written on the real
nyt2023 lists built from the mirror (../shared/wordle-data) up to the entropy stage,
prints the README's numbers; and, where the README's pipeline run has built
data/derived/nyt2022, the opener list is the certified top list."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.artifacts import optimal
from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.cli import main
from pipeline.commands.assistant.data import load
from tests.support.artifact_set import real_artifact_set
from tests.support.fixtures import REPO
from tests.support.naive import feedback
from tests.support.naive_advice import colours_of

pytestmark = pytest.mark.mirror

README_EXAMPLE = re.compile(
    r"```sh\n\.venv/bin/(wordle-assist [^\n]*)\n```\n.*?```text\n(.*?)```", re.DOTALL
)


def readme_example() -> tuple[list[str], str]:
    """The README's first wordle-assist command (its arguments) and the output it shows."""
    command, shown = README_EXAMPLE.search((REPO / "README.md").read_text()).groups()
    return command.split()[1:], shown


def remaining(output: str) -> list[str]:
    """The words of the `remaining:` paragraph, however it is wrapped."""
    paragraph = output.split("remaining:", 1)[1].split("best next guesses", 1)[0]
    return [word.strip() for word in paragraph.replace("\n", " ").split(",")]


def test_the_readme_example_is_what_the_command_prints(mirror, tmp_path_factory, capsys):
    """The reply's count and bits, the words left and the five best next guesses with
    their proven E, exactly as the README shows them, from the raw lists (no optimal
    stage: the rating of the opener itself, which needs it, is not compared)."""
    arguments, shown = readme_example()
    assert arguments[:2] == ["tarse", "BYBBG"]
    nyt2023 = real_artifact_set(tmp_path_factory, mirror, answers="nyt20230701/answers.txt")
    status = main([*arguments, "--data", str(nyt2023.derived)])
    output = capsys.readouterr().out
    assert status == 0
    left = next(line for line in shown.splitlines() if "answers remain" in line)
    assert left == "46 of 3158 answers remain: 5.52 bits" and left in output.splitlines()
    assert remaining(output) == remaining(shown) and len(remaining(shown)) == 46
    lines = shown.splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("rank  guess"))
    rows = lines[header + 1 : header + 6]
    assert len(rows) == 5 and rows[0].split()[1:4] == ["gland", "2.5217", "proven"]
    printed = output.splitlines()
    assert all(row in printed for row in rows), "\n".join(rows)


def test_real_tarse_bybbg_candidates_and_best(real_set):
    """On nyt2022's lists: the candidates are the answers that give the reply, and the
    first-listed guess has the least E."""
    advisor = Advisor(load(real_set.derived), top=3)
    answers = advisor.data.index.answers
    words = advisor.data.index.words
    states = advisor.states(advisor.turns([("tarse", "BYBBG")]))
    left = [a for a in answers if colours_of(feedback("tarse", a), 5) == "BYBBG"]
    assert [words[c] for c in states[1].candidates] == left
    table = advisor.table(states[1])
    best = table.choices[table.order[0]].expected
    assert all(c.expected is None or c.expected >= best for c in table.choices.values())


# The certified top list is the optimal stage's (hours of CPU): only a full build has it.
BUILT = REPO / "data" / "derived" / "nyt2022"
BUILT_FILES = ("words.parquet", "entropy.parquet", optimal.OPENERS_FILE)


@pytest.fixture(scope="module")
def built_nyt2022() -> Path:
    """nyt2022's artifacts of this checkout's pipeline run (the README's first command)."""
    if not all((BUILT / name).is_file() for name in BUILT_FILES):
        pytest.skip("nyt2022 is not built in data/derived (the README's pipeline run)")
    return BUILT


def test_real_openers_are_the_certified_top_list(built_nyt2022):
    """Before the first guess the list is the optimal stage's certified top openers, in
    their order, each with its proven mean; tarse (7,883 over 2,309) first on nyt2022."""
    advisor = Advisor(load(built_nyt2022), top=60)
    table = advisor.table(advisor.states([])[0])
    words = advisor.data.index.words
    listed = [words[w] for w in table.order]
    rows = pq.read_table(built_nyt2022 / optimal.OPENERS_FILE).to_pylist()
    top = sorted(
        (r for r in rows if r["mode"] == "normal" and r["in_top"]), key=lambda r: r["top_rank"]
    )
    assert top, "nyt2022's top list is certified by default (config: optimal)"
    assert listed[: len(top)] == [r["opener"] for r in top]
    assert top[0]["opener"] == "tarse" and top[0]["total_guesses"] == 7883
    for row in top:
        choice = table.choices[words.index(row["opener"])]
        assert choice.evidence == "proven" and choice.certified
        assert choice.expected == pytest.approx(row["mean_guesses"], abs=1e-12)
