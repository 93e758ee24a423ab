"""A whole artifact set built in-process by the stage functions, for tests that read it.

`build_artifact_set(root)` walks the same path as the workflow (ARCHITECTURE.md, "The
data walk"): sealed raw inputs in data/raw (pipeline.artifacts.raw.write_raw), then every
stage function of pipeline.stages, in order, into root/data/derived and root/data/work,
with the workflow's default settings (read from workflow/schemas/config.schema.yaml, the
one place they are declared; see Settings for the few the tiny fixture changes). By
default the words are the tiny fixture of tests/support/fixtures.py.

Tests share one set per session, even across pytest-xdist workers, through a fixture of
their own that calls `shared_artifact_set`:

    @pytest.fixture(scope="session")
    def artifacts(tmp_path_factory) -> ArtifactSet:
        return shared_artifact_set(tmp_path_factory, "fixture")

`real_artifact_set` does the same for the real lists of the data mirror. A shared set is
read-only for its users: a test that damages or edits files copies it first
(`copy_artifact_set`).

The word lists of the opener and solver tests live here too, beside the builder.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import yaml

from pipeline.analysis.benchmark.units import (
    needs_optimal,
    needs_rankings,
    needs_second_guesses,
    play_units,
)
from pipeline.analysis.optimal.edition_plan import OptimalPlan
from pipeline.artifacts import benchmark as benchmark_artifact
from pipeline.artifacts import catalog, layout
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import entropy as entropy_artifact
from pipeline.artifacts import openers as openers_artifact
from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.patterns import INDEX_FILE, MATRICES, chunk_count, chunk_name
from pipeline.artifacts.raw import write_raw
from pipeline.core.files import sha256_bytes
from pipeline.plan import optimal_stage
from pipeline.stages.bound_openers import bound_openers
from pipeline.stages.build_commonness import build_commonness
from pipeline.stages.build_datapackage import build_datapackage
from pipeline.stages.build_history import build_history
from pipeline.stages.build_prior import build_prior
from pipeline.stages.build_word_index import build_word_index
from pipeline.stages.compute_entropy import compute_entropy
from pipeline.stages.compute_pattern_chunk import compute_pattern_chunk
from pipeline.stages.compute_square_entropy import compute_square_entropy
from pipeline.stages.draw_report_item import draw_report_item
from pipeline.stages.index_pattern_chunks import index_pattern_chunks
from pipeline.stages.merge_bounds import merge_bounds
from pipeline.stages.merge_optimal import merge_optimal
from pipeline.stages.merge_second_guesses import merge_second_guesses
from pipeline.stages.play_history import play_history
from pipeline.stages.play_strategy import play_strategy
from pipeline.stages.rank_opener_part import rank_opener_part
from pipeline.stages.rank_openers import rank_openers
from pipeline.stages.rank_prior_openers import rank_prior_openers
from pipeline.stages.screen_openers import screen_openers
from pipeline.stages.solve_optimal import solve_optimal
from pipeline.stages.summarize_benchmarks import summarize_benchmarks
from tests.support.fixtures import (
    FIXTURE_ALLOWED,
    FIXTURE_ANSWERS,
    FIXTURE_COUNTS,
    REPO,
    history_days,
    history_json,
)
from tests.support.locks import build_lock

SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"
# The edition the sets are built as (the workflow's fixture edition, tests/workflow_helpers).
EDITION = "tiny"
EDITION_TITLE = "the tiny test fixture"
WORDLIST = "allowed"  # the source name of its allowed list


def report_input(path: str) -> str:
    """A report item's input as the workflow names it for EDITION."""
    return path.format(edition=EDITION, wordlist=WORDLIST)


# Word lists of the opener tests: answers with repeated letters and near-identical ones
# (batch, catch, hatch, ...: a candidate and an earlier non-candidate split a bucket
# equally well) and guesses that are junk (xylyl, qajaq) or strong (salet).
OPENER_ANSWERS = [
    "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval",
    "serve", "heath", "dwarf", "model", "karma", "stink", "batch", "catch", "hatch",
    "latch", "match", "patch", "watch", "eerie", "mamma",
]  # fmt: skip
OPENER_GUESSES = [
    "grade", "quiet", "bench", "abate", "feign", "major", "death", "fresh", "crust",
    "stool", "colon", "abase", "marry", "react", "batty", "pride", "floss", "helix",
    "croak", "staff", "paper", "unfed", "whelp", "trawl", "outdo", "adobe", "crazy",
    "xylyl", "fuzzy", "qajaq", "aahed", "salet",
]  # fmt: skip
OPENER_COUNTS = {word: 1000 + 37 * i for i, word in enumerate(OPENER_GUESSES + OPENER_ANSWERS)}


def synthetic_words(seed: int = 7, n_words: int = 90, n_answers: int = 36):
    """Words over nine letters (many shared letters, so ties and repeats are common), a
    sample of them as answers, and p_common per word (the solver tests' lists)."""
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < n_words:
        words.add("".join(rng.choice("aeinrstlo") for _ in range(5)))
    ordered = sorted(words)
    answers = sorted(rng.sample(ordered, n_answers))
    p_common = [round(rng.uniform(0.01, 1.0), 6) for _ in ordered]
    return ordered, answers, p_common


# The report's items, by kind, as the workflow draws them (pipeline.artifacts.catalog).
PLOTS = [name for name, item in catalog.REPORT_ITEMS.items() if item["kind"] == "plot"]
TABLES = [name for name, item in catalog.REPORT_ITEMS.items() if item["kind"] == "table"]


@cache
def _schema() -> dict[str, Any]:
    return yaml.safe_load(SCHEMA.read_text())


def default(section: str, key: str) -> Any:
    """The workflow's default of config[section][key], from the config schema."""
    return _schema()["properties"][section]["properties"][key]["default"]


def kaggle_csv(counts: Mapping[str, int]) -> str:
    """Frequency counts in Kaggle's layout (header, most frequent first)."""
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return "word,count\n" + "".join(f"{word},{count}\n" for word, count in rows)


def fixture_sources(
    allowed: Sequence[str], answers: Sequence[str], counts: Mapping[str, int]
) -> dict[str, bytes]:
    """The raw bytes of each source for word lists and counts, and dated answers whose
    days up to their until add nothing to the answers (tests.support.fixtures.history_days)."""
    return {
        "allowed": "\n".join(allowed).encode(),  # no final newline, like the real list
        "answers": ("\n".join(answers) + "\n").encode(),
        "frequency": kaggle_csv(counts).encode(),
        "history": history_json(history_days(list(allowed), list(answers))[0]).encode(),
    }


def mirror_sources(mirror: Path, answers: str = "answers.txt") -> dict[str, bytes]:
    """The raw bytes of each source in a mirror folder (tests/support/fixtures.py's `mirror`), the
    answers from the file `answers` of it (nyt20230701/answers.txt: nyt2023's)."""
    names = {"allowed": "allowed.txt", "answers": answers, "frequency": "unigram_freq.csv"}
    return {source: (mirror / name).read_bytes() for source, name in names.items()}


def write_raw_inputs(raw: Path, sources: Mapping[str, bytes]) -> dict[str, Path]:
    """data/raw/{allowed,answers,frequency}.txt, sealed with a test provenance."""
    paths = {}
    for name, data in sources.items():
        paths[name] = raw / Path(layout.raw(name)).name
        provenance = {
            "source": name,
            "kind": "test",
            "origin": "tests/support/artifact_set.py",
            "read_from": "test",
            "mirror_path": None,
            "sha256": sha256_bytes(data),
            "bytes": len(data),
            "pinned_sha256": None,
            "verified": False,
        }
        write_raw(data, paths[name], provenance=provenance)
    return paths


def build_matrix(
    words: Path, derived: Path, matrix: str, *, chunk_rows: int, zstd_level: int = 6
) -> list[Path]:
    """One stored matrix (patterns or patterns_square): its index.json first, then its
    chunks, as a rule's `patterns` input lists them."""
    folder = derived / matrix
    n_words = len(words_artifact.read_word_index(words).words)
    chunks = [folder / chunk_name(k) for k in range(chunk_count(n_words, chunk_rows))]
    for number, chunk in enumerate(chunks):
        compute_pattern_chunk(
            words=words,
            chunk=chunk,
            matrix=matrix,
            number=number,
            chunk_rows=chunk_rows,
            zstd_level=zstd_level,
        )
    index = folder / INDEX_FILE
    index_pattern_chunks(
        words=words, chunks=chunks, index=index, matrix=matrix, chunk_rows=chunk_rows
    )
    return [index, *chunks]


def write_p_common(words: Path, commonness: Path, p_common: Sequence[float]) -> Path:
    """commonness.parquet with chosen p_common (the other columns are placeholders)."""
    names = words_artifact.read_word_index(words).words
    n = len(names)
    table = pa.table(
        {
            "word_id": pa.array(np.arange(n, dtype=np.int32)),
            "word": pa.array(list(names), pa.string()),
            "count": pa.array(np.zeros(n, dtype=np.int64)),
            "frequency_rank": pa.array(np.arange(1, n + 1, dtype=np.int32)),
            "x": pa.array(np.zeros(n)),
            "p_common": pa.array(np.asarray(p_common, dtype=np.float64)),
        }
    )
    commonness_artifact.write_commonness(
        table, commonness, inputs={"words": words}, settings={"chosen": True}
    )
    return commonness


@dataclass(frozen=True)
class Settings:
    """The settings of one build: the workflow's defaults (the config schema's), except
    those tests/workflow/test_workflow.py sets for the tiny fixture (n_common 5, chunks of 7 rows,
    so the fixture still spans several chunks and p_common varies)."""

    n_common: int = 5
    width: float = field(default_factory=lambda: default("commonness", "width"))
    chunk_rows: int = 7
    zstd_level: int = field(default_factory=lambda: default("patterns", "zstd_level"))
    square: bool = False
    parts: int = field(default_factory=lambda: default("openers", "parts"))
    prior_top_k: int = field(default_factory=lambda: default("openers", "prior_top_k"))
    strategies: list[dict[str, Any]] = field(
        default_factory=lambda: default("solver", "strategies")
    )
    openers_per_job: int = field(default_factory=lambda: default("solver", "openers_per_job"))
    max_turns: int = field(default_factory=lambda: default("solver", "max_turns"))
    bin_bits: float = field(default_factory=lambda: default("solver", "bin_bits"))
    optimal_top: int | str = field(default_factory=lambda: default("optimal", "top"))
    optimal_openers: list[str] = field(default_factory=lambda: default("optimal", "openers"))
    optimal_modes: list[str] = field(default_factory=lambda: default("optimal", "modes"))
    max_guesses: int = field(default_factory=lambda: default("optimal", "max_guesses"))
    certify: bool = field(default_factory=lambda: default("optimal", "certify"))
    screen_parts: int = field(default_factory=lambda: default("optimal", "screen_parts"))
    optimal_openers_per_job: int = field(
        default_factory=lambda: default("optimal", "openers_per_job")
    )
    threads: int = 1


@dataclass(frozen=True)
class ArtifactSet:
    """Where a built set's files are (root/data/{raw,derived,work})."""

    root: Path
    settings: Settings
    words_list: tuple[str, ...]  # the word index's words, in word_id order

    @property
    def raw(self) -> Path:
        return self.root / layout.RAW

    @property
    def derived(self) -> Path:
        """The edition's folder of artifacts (the workflow's data/derived/<edition>)."""
        return self.root / layout.DERIVED / EDITION

    @property
    def work(self) -> Path:
        return self.root / layout.WORK / EDITION

    def raw_file(self, source: str) -> Path:
        return self.root / layout.raw(source)

    def matrix(self, name: str = "patterns") -> list[Path]:
        """index.json then the chunks of a stored matrix."""
        folder = self.derived / name
        return [folder / INDEX_FILE, *sorted(folder.glob("chunk-*.npy.zst"))]

    @property
    def words(self) -> Path:
        return self.derived / words_artifact.FILE

    @property
    def commonness(self) -> Path:
        """The shared commonness of the allowed list (the workflow's data/derived/shared)."""
        return self.root / catalog.COMMONNESS.format(wordlist=WORDLIST)

    @property
    def entropy(self) -> Path:
        return self.derived / entropy_artifact.ENTROPY_FILE

    @property
    def distribution(self) -> Path:
        return self.derived / entropy_artifact.DISTRIBUTION_FILE

    @property
    def answer_parts(self) -> list[Path]:
        return [self.work / "opener_parts" / f"answers-{k}.parquet" for k in range(self.parts)]

    @property
    def parts(self) -> int:
        return self.settings.parts

    @property
    def prior_part(self) -> Path:
        """The prior-mode ranking of the allowed list (shared, as in the workflow)."""
        return self.root / catalog.PRIOR_PART.format(wordlist=WORDLIST)

    @property
    def square_entropy(self) -> Path:
        """The square pass of the allowed list (shared, as in the workflow)."""
        return self.root / catalog.SQUARE_ENTROPY.format(wordlist=WORDLIST)

    @property
    def openers(self) -> Path:
        return self.derived / openers_artifact.OPENERS_FILE

    @property
    def second_guesses(self) -> Path:
        return self.derived / openers_artifact.SECOND_GUESSES_FILE

    @property
    def optimal_openers(self) -> Path:
        return self.derived / optimal_artifact.OPENERS_FILE

    @property
    def optimal_trees(self) -> Path:
        return self.derived / optimal_artifact.TREES_FILE

    @property
    def plays_optimal(self) -> bool:
        return any(needs_optimal(s) for s in self.settings.strategies)

    @property
    def games(self) -> Path:
        return self.derived / benchmark_artifact.GAMES_FILE

    @property
    def summary(self) -> Path:
        return self.derived / benchmark_artifact.SUMMARY_FILE

    @property
    def score_model(self) -> Path:
        return self.derived / benchmark_artifact.SCORE_MODEL_FILE

    def screen_part(self, mode: str, part: int, kind: str) -> Path:
        """The summary or tree part of one screen_openers job (the workflow's path)."""
        return self.work / "optimal" / "screen" / f"{mode}-{part}.{kind}.parquet"

    def optimal_part(self, mode: str, batch: str, kind: str) -> Path:
        """The summary or tree part of one solve_optimal job (the workflow's path)."""
        return self.work / "optimal" / mode / f"{batch}.{kind}.parquet"

    def plot(self, name: str) -> Path:
        return self.derived / "plots" / f"{name}.png"

    def table(self, name: str) -> Path:
        return self.derived / "tables" / f"{name}.html"

    @property
    def manifest(self) -> Path:
        return self.root / catalog.DATAPACKAGE

    def published(self) -> list[Path]:
        """Every published artifact, in the workflow's order (catalog.published)."""
        matrices = ["patterns", "patterns_square"] if self.settings.square else ["patterns"]
        stored = [self.root / path for name in matrices for path in self.matrix_files(name)]
        relative = [path.relative_to(self.root).as_posix() for path in stored]
        edition = catalog.published(EDITION, relative)
        history = self.root / catalog.HISTORY
        shared = [self.commonness, *([history] if history.is_file() else [])]
        if not history.is_file():  # without dated answers, no history benchmark either
            played = {"benchmark_history", "benchmark_history_summary", "history-benchmark",
                      "prior", "prior_backtest", "prior-backtest"}  # fmt: skip
            edition = [path for path in edition if Path(path).stem not in played]
        return [*shared, *[self.root / path for path in edition]]

    def matrix_files(self, name: str) -> list[str]:
        """The stored matrix's files as the workflow names them (relative to root)."""
        chunks = len(self.matrix(name)) - 1
        return catalog.matrix_files(EDITION, name, chunks)


def build_artifact_set(
    root: Path,
    *,
    allowed: Sequence[str] = FIXTURE_ALLOWED,
    answers: Sequence[str] = FIXTURE_ANSWERS,
    counts: Mapping[str, int] = FIXTURE_COUNTS,
    sources: Mapping[str, bytes] | None = None,
    settings: Settings | None = None,
    until: str = "manifest",
) -> ArtifactSet:
    """Run every stage in-process, in the workflow's order, into root/data.

    The raw inputs are `sources` (bytes per source, e.g. mirror_sources) when given, else
    the word lists and counts. `until` stops after a step: "words", "patterns",
    "entropy", "openers", "optimal", "benchmark", "report" or "manifest" (everything).
    """
    steps = (
        "words", "patterns", "entropy", "openers", "optimal", "benchmark", "report", "manifest"
    )  # fmt: skip
    if until not in steps:
        raise ValueError(f"until must be one of {steps}")
    last = steps.index(until)
    settings = settings or Settings()
    root = Path(root)
    if sources is None:
        sources = fixture_sources(allowed, answers, counts)
    raw = write_raw_inputs(root / layout.RAW, sources)
    derived = root / layout.DERIVED / EDITION
    derived.mkdir(parents=True, exist_ok=True)
    words = derived / words_artifact.FILE
    # The edition's answers are the union of the answer list and the days played (as the
    # workflow tests' edition), when the sources hold dated answers.
    until = history_days(list(allowed), list(answers))[1] if "history" in raw else ""
    answer_lists = [raw["answers"], raw["history"]] if until else [raw["answers"]]
    build_word_index(allowed=raw["allowed"], answers=answer_lists, words=words, until=until)
    if until:
        history = root / catalog.HISTORY
        build_history(source=raw["history"], words=[words], history=history, editions=[EDITION],
                      until=until)  # fmt: skip
        build_prior(words=words, history=history, prior=root / catalog.HISTORY_PRIOR.format(
            edition=EDITION), backtest_file=root / catalog.HISTORY_PRIOR_BACKTEST.format(
            edition=EDITION))  # fmt: skip
    index = words_artifact.read_word_index(words)
    result = ArtifactSet(root, settings, index.words)
    build_commonness(
        allowed=raw["allowed"],
        frequency=raw["frequency"],
        commonness=result.commonness,
        n_common=settings.n_common,
        width=settings.width,
    )
    if last < steps.index("patterns"):
        return result
    matrices = {
        name: build_matrix(
            words, derived, name, chunk_rows=settings.chunk_rows, zstd_level=settings.zstd_level
        )
        for name in MATRICES
        if name == "patterns" or settings.square
    }
    if last < steps.index("entropy"):
        return result
    compute_square_entropy(
        allowed=raw["allowed"],
        commonness=result.commonness,
        square_entropy=result.square_entropy,
        threads=settings.threads,
    )
    compute_entropy(
        words=words,
        commonness=result.commonness,
        patterns=matrices["patterns"],
        square_entropy=result.square_entropy,
        entropy=result.entropy,
        distribution=result.distribution,
        threads=settings.threads,
    )
    if last < steps.index("openers"):
        return result
    for number, part in enumerate(result.answer_parts):
        rank_opener_part(
            words=words,
            patterns=matrices["patterns"],
            part=part,
            number=number,
            parts=settings.parts,
            threads=settings.threads,
        )
    rank_prior_openers(
        allowed=raw["allowed"],
        commonness=result.commonness,
        square_entropy=result.square_entropy,
        part=result.prior_part,
        prior_top_k=settings.prior_top_k,
        threads=settings.threads,
    )
    parts = [*result.answer_parts, result.prior_part]
    rank_openers(words=words, parts=parts, openers=result.openers)
    merge_second_guesses(words=words, parts=parts, second_guesses=result.second_guesses)
    if last < steps.index("optimal"):
        return result
    solve_optimal_jobs(result, words, matrices["patterns"])
    if last < steps.index("benchmark"):
        return result
    play_benchmark_units(result, words, matrices["patterns"])
    if (root / catalog.HISTORY).is_file():
        play_history_benchmark(result, words, matrices["patterns"])
    if last < steps.index("report"):
        return result
    for name, item in catalog.REPORT_ITEMS.items():
        if not all((root / report_input(path)).is_file() for path in item["inputs"]):
            continue  # the history plot, without dated answers
        draw_report_item(
            artifacts=[root / report_input(path) for path in item["inputs"]],
            item=root / catalog.report_item(name, EDITION),
            name=name,
        )
    if last < steps.index("manifest"):
        return result
    config = {
        "commonness": {"n_common": settings.n_common, "width": settings.width},
        "patterns": {"chunk_rows": settings.chunk_rows, "square": settings.square},
        "openers": {"parts": settings.parts, "prior_top_k": settings.prior_top_k},
        "editions": {
            EDITION: {
                "enabled": True,
                "title": EDITION_TITLE,
                "allowed": WORDLIST,
                "answers": ["answers", "history"] if until else "answers",
            }
        },
        "history": {"until": until},
    }
    build_datapackage(
        artifacts=result.published(),
        raw=list(raw.values()),
        datapackage=result.manifest,
        schema=result.manifest.parent / "schema.sql",
        card=result.manifest.parent / "README.md",
        croissant=[result.manifest.parent / EDITION / "croissant.json"],
        config=json.dumps(config, sort_keys=True),
        editions=[EDITION],
    )
    return result


def play_benchmark_units(result: ArtifactSet, words: Path, patterns: list[Path]) -> None:
    """Every unit of the solver benchmark (as the workflow's play_strategy jobs), then the
    merge (summarize_benchmarks)."""
    settings = result.settings
    units = play_units(settings.strategies, settings.openers_per_job)
    parts = [result.work / "games" / f"{unit}.parquet" for unit in units]
    for part, unit in zip(parts, units.values(), strict=True):
        play_strategy(
            words=words,
            commonness=result.commonness,
            patterns=patterns,
            games=part,
            **ranking_inputs(result, unit["strategy"]),
            **optimal_inputs(result, unit["strategy"]),
            strategy=unit["strategy"],
            opener_slice=unit["opener_slice"],
            max_turns=settings.max_turns,
            threads=settings.threads,
        )
    summarize_benchmarks(
        parts=parts,
        games=result.games,
        summary=result.summary,
        score_model=result.score_model,
        max_turns=settings.max_turns,
        bin_bits=settings.bin_bits,
        strategies=settings.strategies,
        optimal_openers=result.optimal_openers if result.plays_optimal else None,
    )


def play_history_benchmark(result: ArtifactSet, words: Path, patterns: list[Path]) -> None:
    """The strategies on the played days (as the workflow's play_history job)."""
    settings = result.settings
    strategies = settings.strategies
    rankings = any(needs_rankings(s) for s in strategies)
    seconds = any(needs_second_guesses(s) for s in strategies)
    play_history(
        history=result.root / catalog.HISTORY, words=words, commonness=result.commonness,
        patterns=patterns, games=result.games, score_model=result.score_model,
        benchmark_history=result.root / catalog.BENCHMARK_HISTORY.format(edition=EDITION),
        summary=result.root / catalog.BENCHMARK_HISTORY_SUMMARY.format(edition=EDITION),
        strategies=strategies, max_turns=settings.max_turns,
        openers=result.openers if rankings else None,
        second_guesses=result.second_guesses if seconds else None,
        optimal_openers=result.optimal_openers if result.plays_optimal else None,
        optimal_trees=result.optimal_trees if result.plays_optimal else None,
    )  # fmt: skip


def ranking_inputs(result: ArtifactSet, strategy: dict[str, Any]) -> dict[str, Path]:
    """The opener ranking files, for the units that read them (as the workflow)."""
    if not needs_rankings(strategy):
        return {}
    if not needs_second_guesses(strategy):
        return {"openers": result.openers}
    return {"openers": result.openers, "second_guesses": result.second_guesses}


def optimal_inputs(result: ArtifactSet, strategy: dict[str, Any]) -> dict[str, Path]:
    """The optimal files, for the units that play an optimal tree (as the workflow)."""
    if not needs_optimal(strategy):
        return {}
    return {"optimal_openers": result.optimal_openers, "optimal_trees": result.optimal_trees}


def plan_of(settings: Settings) -> OptimalPlan:
    """The optimal stage's plan of the settings (the workflow resolves an edition's)."""
    return OptimalPlan.of(
        {
            "top": settings.optimal_top,
            "certify": settings.certify,
            "openers": settings.optimal_openers,
            "modes": settings.optimal_modes,
        }
    )


def optimal_jobs(result: ArtifactSet) -> list[tuple[str, str]]:
    """(mode, opener) of the first openers proven, chosen as the workflow chooses them."""
    return optimal_stage.first_jobs(plan_of(result.settings), result.openers)


def first_batches(result: ArtifactSet) -> dict[tuple[str, str], list[str]]:
    """(mode, job name) -> openers of the first round's solve_optimal jobs."""
    per_job = result.settings.optimal_openers_per_job
    return optimal_stage.batches(optimal_jobs(result), per_job)


def optimal_batches(result: ArtifactSet) -> dict[tuple[str, str], list[str]]:
    """(mode, job name) -> openers of every solve_optimal job the set ran: the first
    round's, then with certify each mode's next round."""
    plan, batches = plan_of(result.settings), first_batches(result)
    if plan.certify:
        n_words = len(result.words_list)
        for mode in plan.modes:
            bounds = result.work / "optimal" / f"bounds-{mode}.parquet"
            more = optimal_stage.next_jobs(plan, mode, bounds, optimal_jobs(result), n_words)
            per_job = result.settings.optimal_openers_per_job
            batches |= optimal_stage.batches(more, per_job)
    return batches


def optimal_summaries(result: ArtifactSet, batches: Iterable[tuple[str, str]]) -> list[Path]:
    """The summary parts of the solve_optimal jobs `batches` ((mode, job name) pairs)."""
    return [result.optimal_part(mode, batch, "summary") for mode, batch in batches]


def solve_optimal_jobs(result: ArtifactSet, words: Path, patterns: list[Path]) -> None:
    """Every job of the optimal stage in the workflow's order: the first solve_optimal
    jobs; with certify, the bound parts, their merge, the lowest-bounded openers' jobs and
    the screen parts; then merge_optimal. The jobs are chosen by the workflow's plan
    (pipeline.plan.optimal_stage)."""
    settings, plan = result.settings, plan_of(result.settings)
    first = first_batches(result)
    _solve(result, words, patterns, first)
    bounds = {mode: result.work / "optimal" / f"bounds-{mode}.parquet" for mode in plan.modes}
    if plan.certify:
        for mode in plan.modes:
            _bound(result, words, patterns, mode, optimal_summaries(result, first))
    batches = optimal_batches(result)
    _solve(result, words, patterns, {key: batches[key] for key in batches if key not in first})
    screen = optimal_stage.screen_jobs(plan, settings.screen_parts)
    for mode, part in screen:
        screen_openers(
            words=words, patterns=patterns, bounds=bounds[mode],
            proven=optimal_summaries(result, batches),
            summary=result.screen_part(mode, part, "summary"),
            tree=result.screen_part(mode, part, "tree"), mode=mode, part=part,
            parts=settings.screen_parts, top=plan.top, max_guesses=settings.max_guesses,
        )  # fmt: skip
    merge_optimal(
        words=words,
        summaries=optimal_summaries(result, batches),
        trees=[result.optimal_part(m, b, "tree") for m, b in batches],
        screen_summaries=[result.screen_part(m, p, "summary") for m, p in screen],
        screen_trees=[result.screen_part(m, p, "tree") for m, p in screen],
        bounds=[bounds[m] for m in plan.modes if plan.certify],
        optimal_openers=result.optimal_openers,
        optimal_trees=result.optimal_trees,
        top=plan.top,
        certify=plan.certify,
        max_guesses=settings.max_guesses,
    )


def _solve(result: ArtifactSet, words: Path, patterns: list[Path],
           batches: dict[tuple[str, str], list[str]]) -> None:  # fmt: skip
    for (mode, batch), openers in batches.items():
        solve_optimal(
            words=words,
            patterns=patterns,
            summary=result.optimal_part(mode, batch, "summary"),
            tree=result.optimal_part(mode, batch, "tree"),
            mode=mode,
            openers=openers,
            max_guesses=result.settings.max_guesses,
        )


def _bound(result: ArtifactSet, words: Path, patterns: list[Path], mode: str, first: list
           ) -> None:  # fmt: skip
    """The bound parts of one mode and their merge (the merge_bounds checkpoint)."""
    settings = result.settings
    parts = [result.work / "optimal" / "bounds" / f"{mode}-{p}.parquet"
             for p in range(settings.screen_parts)]  # fmt: skip
    for part, path in enumerate(parts):
        bound_openers(
            words=words, patterns=patterns, proven=first, bounds=path, mode=mode, part=part,
            parts=settings.screen_parts, top=settings.optimal_top,
            max_guesses=settings.max_guesses, threads=2,
        )  # fmt: skip
    merged = result.work / "optimal" / f"bounds-{mode}.parquet"
    merge_bounds(words=words, parts=parts, bounds=merged, mode=mode)


def copy_artifact_set(artifacts: ArtifactSet, root: Path) -> ArtifactSet:
    """A private copy (seals record relative paths, so the copy verifies as it is)."""
    shutil.copytree(artifacts.root, root)
    return replace(artifacts, root=Path(root))


def shared_artifact_set(tmp_path_factory: Any, name: str, **arguments: Any) -> ArtifactSet:
    """build_artifact_set(..., **arguments) once per test session, even across
    pytest-xdist workers (they share the session's base folder; a lock orders them)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    root = base / f"artifact-set-{name}"
    done = base / f"artifact-set-{name}.done"
    with build_lock(base / f"artifact-set-{name}.lock"):
        if not done.is_file():
            shutil.rmtree(root, ignore_errors=True)  # what a failed build left
            build_artifact_set(root, **arguments)
            done.write_text("built\n")
    index_file = root / layout.DERIVED / EDITION / words_artifact.FILE
    words = words_artifact.read_word_index(index_file).words
    return ArtifactSet(root, arguments.get("settings") or Settings(), words)


def real_artifact_set(
    tmp_path_factory: Any, mirror: Path, until: str = "entropy", answers: str = "answers.txt"
) -> ArtifactSet:
    """The real lists (the mirror's bytes; the answers of its file `answers`) with the
    workflow's default settings, built once per test session up to `until` ("entropy" is
    cheap; "openers" takes minutes)."""
    settings = Settings(
        n_common=default("commonness", "n_common"),
        chunk_rows=default("patterns", "chunk_rows"),
        threads=2,
    )
    return shared_artifact_set(
        tmp_path_factory,
        f"real-{until}" + ("" if answers == "answers.txt" else f"-{Path(answers).parent}"),
        sources=mirror_sources(mirror, answers),
        settings=settings,
        until=until,
    )
