"""What the assistant reads, each file through its artifact reader (which verifies its
seal) and only when an answer needs it: a one-shot answer must stay under half a second.

Required: words.parquet and entropy.parquet; in the answer-list mode the stored guess x
answer matrix (patterns/), in prior mode score_model.parquet. Optional:
optimal_openers.parquet and optimal_trees.parquet: the certified top openers and the
proven trees the assistant follows; without them its own search values every guess.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipeline.analysis.advice.estimate import ScoreCurve
from pipeline.analysis.history.archive import Coverage, coverage
from pipeline.analysis.optimal.tree import OptimalTree, TreeError
from pipeline.artifacts import benchmark as benchmark_artifact
from pipeline.artifacts import entropy as entropy_artifact
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import REBUILD_HINT
from pipeline.core.errors import ArtifactError, UsageError
from pipeline.core.word_index import WordIndex

DATA_VARIABLE = "WORDLE_DATA"
DERIVED = Path("data") / "derived"
PROJECT = Path(__file__).resolve().parents[3]
# The score model's strategy whose curve F is, per (prior mode, hard mode): the first
# one the file holds. A proven-optimal strategy's games come first when the benchmark
# has them. Then, with the answer list known, the opener benchmark: greedy_entropy's
# play after each of the top openers, 50 times the games of greedy_entropy alone, so
# its bins are the smoothest; greedy_entropy_hard in hard mode. Prior mode takes
# commonness, the strategy that plays without the answer list, as prior mode does.
CURVES = {
    (False, False): ("optimal", "opener_benchmark", "greedy_entropy", "two_step"),
    (False, True): ("optimal_hard", "greedy_entropy_hard", "greedy_entropy"),
    (True, False): ("commonness", "greedy_entropy"),
    (True, True): ("commonness", "greedy_entropy_hard", "greedy_entropy"),
}
# optimal_openers.parquet (pipeline.artifacts.optimal.OPENERS_FILE, which a test checks):
# named here so that its absence is known without importing that module and, through
# it, pyarrow.compute (30 ms of a one-shot answer).
OPTIMAL_OPENERS_FILE = "optimal_openers.parquet"
OPTIMAL_TREES_FILE = "optimal_trees.parquet"  # likewise pipeline.artifacts.optimal.TREES_FILE
BUILD_HINT = (
    "run the pipeline to build it (see README.md), or point --data or WORDLE_DATA at a "
    "folder of built artifacts"
)


def data_folder(option: str | Path | None) -> Path:
    """The artifacts folder: --data, else $WORDLE_DATA, else data/derived in the current
    folder, else data/derived beside the project."""
    if option:
        return Path(option)
    if os.environ.get(DATA_VARIABLE):
        return Path(os.environ[DATA_VARIABLE])
    here = DERIVED
    if here.is_dir():
        return here
    beside = PROJECT / DERIVED
    if beside.is_dir():
        return beside
    raise ArtifactError(
        f"no folder of artifacts: neither ./{here} nor {beside} exists; {BUILD_HINT}"
    )


DESCRIPTOR = "datapackage.json"  # pipeline.artifacts.datapackage.FILE
SHARED = "shared"  # pipeline.artifacts.catalog.SHARED: history.parquet's folder


@dataclass(frozen=True)
class Edition:
    """The edition the assistant reads: its name and title, and its folder."""

    name: str
    title: str
    folder: Path


def _built_editions(root: Path) -> list[dict[str, str]]:
    """The editions the descriptor of `root` lists, oldest first (checked against its
    seal first); without a descriptor, the subfolders that hold a word index, by name."""
    descriptor = root / DESCRIPTOR
    if descriptor.is_file():
        from pipeline.artifacts.seal import verify

        verify(descriptor, check_inputs=False)
        try:
            entries = json.loads(descriptor.read_text(encoding="utf-8"))["wordle_pipeline"]
            return [dict(entry) for entry in entries["editions"]]
        except (ValueError, KeyError, TypeError) as error:
            raise ArtifactError(
                f"{descriptor}: lists no editions ({error}); {REBUILD_HINT}"
            ) from None
    folders = sorted(p.parent.name for p in root.glob(f"*/{words_artifact.FILE}"))
    return [{"name": name, "title": "", "path": name} for name in folders]


def choose_edition(root: Path, name: str | None) -> Edition:
    """The edition to read under the artifacts folder `root`: `name` (--edition), else the
    newest built one. A folder that lists no editions is one edition's folder (given with
    --data), read as it is."""
    built = [] if (root / words_artifact.FILE).is_file() else _built_editions(root)
    names = [entry["name"] for entry in built]
    if name is not None and name not in names:
        where = f"built: {', '.join(names)}" if names else "it holds one edition's folder"
        raise UsageError(f"--edition {name}: no such edition in {root} ({where})")
    if not built:
        return _edition_folder(root)
    entry = built[names.index(name)] if name else built[-1]
    return Edition(entry["name"], entry.get("title", ""), root / entry["path"])


def _edition_folder(folder: Path) -> Edition:
    """One edition's folder, named as the descriptor beside it names it (if there is one)."""
    if (folder.parent / DESCRIPTOR).is_file():
        for entry in _built_editions(folder.parent):
            if entry["path"] == folder.name:
                return Edition(entry["name"], entry.get("title", ""), folder)
    return Edition("", "", folder)


@dataclass(frozen=True)
class StoredOpener:
    """An opener's row of optimal_openers.parquet: its tree's total (None: no tree wins
    every answer in time), whether that is proven, its rank in the certified top list."""

    total: int | None
    proven: bool
    top_rank: int | None


@dataclass
class Data:
    """The artifacts folder, read lazily; every value is cached once read."""

    folder: Path
    index: WordIndex
    p_common: np.ndarray
    entropy_answers: np.ndarray
    entropy_prior: np.ndarray
    buckets: np.ndarray  # distinct replies of each guess over the answers
    missing: list[str] = field(default_factory=list)  # optional files looked for, absent
    edition: Edition | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    def path(self, name: str, required: bool = True) -> Path | None:
        """`name` in the folder; a missing optional file is None, and remembered so that
        the answer can say what it did without."""
        path = self.folder / name
        if path.is_file():
            return path
        if required:
            raise ArtifactError(f"{path} is missing: {BUILD_HINT}")
        if name not in self.missing:
            self.missing.append(name)
        return None

    def _cached(self, key: object, read):
        if key not in self._cache:
            self._cache[key] = read()
        return self._cache[key]

    def curve(self, prior: bool, hard: bool) -> ScoreCurve:
        """F, from the first strategy of CURVES[(prior, hard)] the score model holds."""
        table = self._cached("score_model", self._read_score_model)
        for strategy in CURVES[(prior, hard)]:
            if strategy in table:
                return table[strategy]
        where = self.folder / benchmark_artifact.SCORE_MODEL_FILE
        raise ArtifactError(f"{where}: holds none of {CURVES[(prior, hard)]}; {REBUILD_HINT}")

    def _read_score_model(self) -> dict[str, ScoreCurve]:
        path = self.path(benchmark_artifact.SCORE_MODEL_FILE)
        rows = benchmark_artifact.read_score_model(path).to_pydict()
        curves = {}
        for strategy in sorted(set(rows["strategy"])):
            mine = [i for i, s in enumerate(rows["strategy"]) if s == strategy]
            bits = np.array([rows["mean_bits"][i] for i in mine])
            guesses = np.array([rows["mean_guesses_left"][i] for i in mine])
            curves[strategy] = ScoreCurve.from_bins(bits, guesses, strategy)
        return curves

    def optimal_openers(self, hard: bool) -> dict[int, StoredOpener] | None:
        """word_id -> what optimal_openers.parquet holds of that opener in this mode (rows
        with a total or proven to have none), or None when the file is not built."""
        return self._cached(("optimal", hard), lambda: self._read_optimal(hard))

    def _read_optimal(self, hard: bool) -> dict[int, StoredOpener] | None:
        if self.path(OPTIMAL_OPENERS_FILE, required=False) is None:
            return None
        from pipeline.artifacts import optimal as optimal_artifact  # imports pyarrow.compute

        path = self.folder / optimal_artifact.OPENERS_FILE
        rows = optimal_artifact.read_openers(path).to_pydict()
        mode = "hard" if hard else "normal"
        result = {}
        for i, opener_id in enumerate(rows["opener_id"]):
            total, proven = rows["total_guesses"][i], bool(rows["proven"][i])
            if rows["mode"][i] != mode or (total is None and not proven):
                continue
            if self.index.words[opener_id] != rows["opener"][i]:
                raise ArtifactError(f"{path}: opener_id and opener disagree; {REBUILD_HINT}")
            result[opener_id] = StoredOpener(total, proven, rows["top_rank"][i])
        return result

    def tree(self, hard: bool, opener: int) -> OptimalTree | None:
        """The stored tree of (mode, opener), or None when there is none."""
        stored = self.optimal_openers(hard)
        if not stored or opener not in stored or stored[opener].total is None:
            return None
        return self._cached(("tree", hard, opener), lambda: self._read_tree(hard, opener))

    def _read_tree(self, hard: bool, opener: int) -> OptimalTree | None:
        path = self.path(OPTIMAL_TREES_FILE, required=False)
        if path is None:
            return None
        from pipeline.artifacts import optimal as optimal_artifact

        mode, word = "hard" if hard else "normal", self.index.words[opener]
        columns = optimal_artifact.read_tree(path, mode, word).to_pydict()
        if not columns["node_id"]:
            return None
        total = self.optimal_openers(hard)[opener].total
        try:
            return OptimalTree.from_columns(mode, word, columns, total, self.index.words)
        except TreeError as error:
            raise ArtifactError(f"{path}: {error}; {REBUILD_HINT}") from error

    def played_coverage(self) -> Coverage | None:
        """How many of the answers played its edition's answer list covers, from
        shared/history.parquet beside the edition's folder; None without that file or
        without a column for the edition (then nothing is said)."""
        if self.edition is None or not self.edition.name:
            return None
        path = self.folder.parent / SHARED / history_artifact.FILE
        if not path.is_file():
            return None
        return coverage(history_artifact.read_history(path), self.edition.name)

    def answer_matrix(self) -> np.ndarray:
        """The stored guess x answer pattern matrix (patterns/), every chunk checked."""
        from pipeline.artifacts.patterns import INDEX_FILE, read_pattern_matrix

        index_path = self.path(f"patterns/{INDEX_FILE}")
        words_path = self.folder / words_artifact.FILE
        matrix = read_pattern_matrix(index_path, self.index, words_path, columns="answers")
        return matrix.full()


def load(root: Path, edition: str | None = None) -> Data:
    """words.parquet and entropy.parquet of the chosen edition (choose_edition) under the
    artifacts folder `root`, checked."""
    if not root.is_dir():
        raise ArtifactError(f"{root}: no such folder of artifacts: {BUILD_HINT}")
    chosen = choose_edition(root, edition)
    folder = chosen.folder
    words_path = folder / words_artifact.FILE
    entropy_path = folder / entropy_artifact.ENTROPY_FILE
    for path in (words_path, entropy_path):
        if not path.is_file():
            raise ArtifactError(f"{path} is missing: {BUILD_HINT}")
    index = words_artifact.read_word_index(words_path)
    columns = ["p_common", "entropy_answers", "entropy_prior", "buckets"]
    table = entropy_artifact.read_entropy(entropy_path, index, columns)
    p_common, answers, prior, buckets = (
        table[name].to_numpy(zero_copy_only=False) for name in columns
    )
    return Data(folder, index, p_common, answers, prior, buckets, edition=chosen)
