"""`wordle-assist`: the best next guesses of a game in progress, read from the artifacts.

The terminal equivalent of the original Java solver's "Hacker" window. Give the guesses so
far, each followed by its colours (B grey, Y yellow, G green, any case):

    wordle-assist                           best openers
    wordle-assist tarse BYBBG doily BBGBB   after two guesses
    wordle-assist --mode prior tarse BYBBG  answer list unknown

It prints how many answers remain and how many bits that is, the remaining candidates
when few, and the best next guesses: entropy (bits) of each guess's reply over the
remaining candidates, its p_common, and whether it could be the answer. Entropies within
TIE_TOLERANCE are equal; then candidates come first, then the lower word_id.

Modes:
- answers (default): the answer is one of the answer list, all equally likely;
- prior: the answer list is unknown; every allowed word consistent with the feedback is a
  candidate, weighted by its p_common.

Only published artifacts are read (`--data`, default data/derived); nothing stored is
recomputed:
- no guesses: the stored entropies and ranks of entropy.parquet;
- one guess: the stored best second guess of second_guesses.parquet, when it holds the
  opener (every opener in mode answers, the top ones in mode prior);
- the table after guesses: mode answers reads the stored guess x answer matrix
  (patterns/) and measures every guess over the remaining answers' columns. Mode prior
  reads the guesses' rows of patterns_square/ when it is stored (else computes those few
  rows) and computes every guess against the remaining candidates.

Speed: numba's first call costs ~0.8 s of CPU (its import, then loading the cached
kernels), more than the whole answer, so small jobs never import it (nor pipeline.entropy,
which does): patterns and entropies of up to NUMPY_MAX_ELEMENTS (guess, candidate) pairs
are plain numpy (pipeline.patterns.feedback_matrix_numpy and _entropies_numpy here). The
stored matrix is read through pipeline.matrix.PatternMatrix, which decodes the chunks a
read needs in a few threads; after one guess every chunk is read once (the candidates'
columns need them all), after more only the guesses' chunks first, as often a single
candidate is left. Parquet files are read through pq.ParquetFile, as pq.read_table would
import pyarrow.dataset (~0.15 s).
"""

from __future__ import annotations

import argparse
import bisect
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import PipelineError
from pipeline.files import sha256_file
from pipeline.parquet import read_provenance
from pipeline.patterns import encode_words, feedback_matrix, feedback_matrix_numpy, parse_pattern
from pipeline.ties import TIE_TOLERANCE, descending_tie_groups
from pipeline.words import WordIndex, load_word_index

if TYPE_CHECKING:
    from pipeline.matrix import PatternMatrix

PROG = "wordle-assist"
MODES = ("answers", "prior")
DEFAULT_DATA = Path("data/derived")
DEFAULT_TOP = 10
DEFAULT_LIST = 10  # remaining candidates are listed when at most this many
# Up to this many (guess, candidate) pairs, patterns and entropies are plain numpy. Beyond
# it numba's kernels win, though their first call costs about 0.8 s of CPU (import, then
# loading the cached kernels): as much as numpy needs for some 10^8 pairs.
NUMPY_MAX_ELEMENTS = 100_000_000
_BLOCK_ELEMENTS = 1 << 20  # (guess, candidate) pairs per numpy block, to bound temporaries


class UsageError(PipelineError):
    """A bad command line (exit status 2), as opposed to missing or damaged data (1)."""


# --- the artifacts --------------------------------------------------------------------------


def _missing(path: Path) -> PipelineError:
    return PipelineError(
        f"{path} is missing: run the pipeline to build it (see README.md), or point --data "
        "at a folder of built artifacts"
    )


def _read_parquet(path: Path, columns: Sequence[str], what: str) -> pa.Table:
    """Selected columns of a Parquet file.

    Through pq.ParquetFile: pq.read_table would import pyarrow.dataset (~0.15 s).
    """
    if not path.is_file():
        raise _missing(path)
    try:
        return pq.ParquetFile(path).read(columns=list(columns))
    except (OSError, pa.ArrowException) as error:
        raise PipelineError(f"{path}: cannot be read as {what} ({error})") from None


def _built_from(path: Path, words_sha256: str) -> None:
    """Fail when a Parquet artifact's provenance records another word index as its input."""
    try:
        inputs = read_provenance(path).get("inputs_sha256")
    except (OSError, pa.ArrowException, ValueError) as error:
        raise PipelineError(f"{path}: cannot read its metadata ({error})") from None
    recorded = inputs.get("words") if isinstance(inputs, dict) else None
    if recorded is not None and recorded != words_sha256:
        raise PipelineError(
            f"{path} was built from another words.parquet: rerun the pipeline to rebuild it"
        )


@dataclass(frozen=True)
class Artifacts:
    """What the assistant reads up front: the word index and the per-guess table."""

    folder: Path
    index: WordIndex
    words_sha256: str
    p_common: np.ndarray  # float64 per word_id
    entropy: dict[str, np.ndarray]  # mode -> stored entropy per word_id
    rank: dict[str, np.ndarray]  # mode -> stored rank per word_id

    @property
    def words_path(self) -> Path:
        return self.folder / "words.parquet"

    def matrix(self, name: str, columns: str) -> PatternMatrix:
        """The stored matrix of folder `name` (patterns or patterns_square).

        Checked to be built from this words.parquet, with `columns` columns (answers or
        guesses) in the expected shape; its chunks are checked as they are read.
        """
        from pipeline.matrix import load_pattern_matrix  # only when a matrix is read

        index_path = self.folder / name / "index.json"
        if not index_path.is_file():
            raise _missing(index_path)
        return load_pattern_matrix(index_path, self.words_path, columns=columns)


def load_artifacts(folder: str | Path) -> Artifacts:
    """Read words.parquet and entropy.parquet from `folder`, checking they belong together."""
    folder = Path(folder)
    if not folder.is_dir():
        raise PipelineError(
            f"{folder}: no such folder of artifacts: run the pipeline to build it (see "
            "README.md), or point --data at a folder of built artifacts"
        )
    words_path = folder / "words.parquet"
    if not words_path.is_file():
        raise _missing(words_path)
    index = load_word_index(words_path)
    words_sha256 = sha256_file(words_path)
    entropy_path = folder / "entropy.parquet"
    columns = ["word", "p_common"]
    columns += [f"entropy_{mode}" for mode in MODES] + [f"rank_{mode}" for mode in MODES]
    table = _read_parquet(entropy_path, columns, "an entropy table")
    _built_from(entropy_path, words_sha256)
    if tuple(table["word"].to_pylist()) != index.words:
        raise PipelineError(
            f"{entropy_path} does not list the words of {words_path}: rerun the pipeline"
        )

    def column(name: str) -> np.ndarray:
        return table[name].to_numpy(zero_copy_only=False)

    return Artifacts(
        folder,
        index,
        words_sha256,
        column("p_common").astype(np.float64),
        {mode: column(f"entropy_{mode}").astype(np.float64) for mode in MODES},
        {mode: column(f"rank_{mode}").astype(np.int64) for mode in MODES},
    )


@dataclass(frozen=True)
class StoredSecondGuess:
    """One row of second_guesses.parquet."""

    word_id: int
    entropy: float
    is_candidate: bool
    bucket_size: int


def stored_second_guess(
    artifacts: Artifacts, mode: str, opener: int, pattern_id: int
) -> StoredSecondGuess | None:
    """The stored best second guess after `opener` got `pattern_id`, or None if not stored.

    Rows are sorted by (mode, opener_id, pattern_id) in row groups; only the groups whose
    statistics can hold the opener are read.
    """
    path = artifacts.folder / "second_guesses.parquet"
    if not path.is_file():
        return None
    names = ["mode", "opener_id", "pattern_id", "second_guess_id"]
    names += ["second_entropy", "second_is_candidate", "bucket_size"]
    try:
        parquet = pq.ParquetFile(path)
        positions = {name: parquet.schema_arrow.get_field_index(name) for name in names}
        if min(positions.values()) < 0:
            raise PipelineError(f"{path}: not a second-guess table (columns {names} expected)")
        _built_from(path, artifacts.words_sha256)
        for group in range(parquet.metadata.num_row_groups):
            meta = parquet.metadata.row_group(group)
            if any(
                stats is not None and stats.has_min_max and not stats.min <= value <= stats.max
                for stats, value in (
                    (meta.column(positions["mode"]).statistics, mode),
                    (meta.column(positions["opener_id"]).statistics, opener),
                )
            ):
                continue  # the group's statistics rule the opener out
            table = parquet.read_row_group(group, columns=names)
            hits = np.flatnonzero(
                (table["opener_id"].to_numpy() == opener)
                & (table["pattern_id"].to_numpy() == pattern_id)
            )
            for hit in hits.tolist():  # the mode's strings are read only where the ids match
                row = {name: table[name][hit].as_py() for name in names}
                if row["mode"] == mode:
                    return StoredSecondGuess(
                        row["second_guess_id"],
                        row["second_entropy"],
                        row["second_is_candidate"],
                        row["bucket_size"],
                    )
    except (OSError, pa.ArrowException) as error:
        raise PipelineError(f"{path}: cannot be read ({error})") from None
    return None


# --- patterns and entropies: numpy when small, numba's kernels when large -----------------


def _entropies_numpy(patterns: np.ndarray, weights: np.ndarray | None, n_bins: int) -> np.ndarray:
    """Entropy (bits) of each row's reply distribution; weights (summing to 1) per column.

    Rows are taken in blocks of about _BLOCK_ELEMENTS. With few columns (candidates) next to
    the n_bins possible ids, each row is sorted and its buckets are the runs of equal ids;
    otherwise one bincount per block counts (row, pattern id) bins. Either way a bucket's
    weights add up in column order, as in pipeline.entropy.
    """
    n_rows, n = patterns.shape
    out = np.empty(n_rows, dtype=np.float64)
    by_sorting = 2 * n < n_bins
    step = max(1, _BLOCK_ELEMENTS // (n if by_sorting else max(n, n_bins)))
    for start in range(0, n_rows, step):
        block = patterns[start : start + step]
        m = block.shape[0]
        if by_sorting:
            order = np.argsort(block, axis=1, kind="stable")
            ids = np.take_along_axis(block, order, axis=1).ravel()
            new = np.ones(ids.size, dtype=bool)  # where a bucket starts
            new[1:] = ids[1:] != ids[:-1]
            new[::n] = True  # as does every row
            first = np.flatnonzero(new)
            if weights is None:
                sums = np.diff(first, append=ids.size).astype(np.float64)
            else:
                sums = np.add.reduceat(weights[order].ravel(), first)
            rows = first // n
        else:
            keys = (block + (np.arange(m, dtype=np.int64) * n_bins)[:, None]).ravel()
            tiled = None if weights is None else np.tile(weights, m)
            sums = np.bincount(keys, tiled, minlength=m * n_bins)
            first = np.flatnonzero(sums)
            sums, rows = sums[first], first // n_bins
        filled = sums > 0  # a bucket of zero weight adds nothing
        p = sums[filled] / n if weights is None else sums[filled]
        out[start : start + m] = np.bincount(rows[filled], -p * np.log2(p), minlength=m)
    return out


def feedback_rows(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """Pattern ids of guesses x answers: numpy when small, pipeline.patterns' kernel else."""
    if guesses.shape[0] * answers.shape[0] <= NUMPY_MAX_ELEMENTS:
        return feedback_matrix_numpy(guesses, answers)
    return feedback_matrix(guesses, answers)  # imports numba on first use


def entropies(patterns: np.ndarray, n_bins: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Entropy (bits) of each row's replies (ids below n_bins), uniform or weighted."""
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64) / np.sum(weights)
    if patterns.shape[1] == 1:
        return np.zeros(patterns.shape[0])
    if patterns.size <= NUMPY_MAX_ELEMENTS:
        return _entropies_numpy(patterns, weights, n_bins)
    from pipeline.entropy import entropies_from_matrix

    return entropies_from_matrix(patterns, weights, n_bins=n_bins)


def best_order(
    entropy: np.ndarray, is_candidate: np.ndarray, tolerance: float = TIE_TOLERANCE
) -> np.ndarray:
    """Guess ids, best first: highest entropy; within `tolerance` candidates, then word_id."""
    groups = descending_tie_groups(entropy, tolerance)
    return np.lexsort((np.arange(entropy.size), ~is_candidate, groups))


# --- the assistant --------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    word_id: int
    word: str
    pattern_id: int
    colours: str


@dataclass(frozen=True)
class Advice:
    """Everything the assistant prints."""

    mode: str
    turns: tuple[Turn, ...]
    n_start: int  # candidates before any guess (answers, or every allowed word)
    candidates: np.ndarray  # word_id of each remaining candidate, ascending
    bits: float  # log2 of the number of candidates
    weighted_bits: float | None  # prior mode: entropy of the p_common-weighted candidates
    best: np.ndarray  # word_id of the best next guesses, best first
    best_entropy: np.ndarray  # their entropy over the candidates (bits)
    best_is_candidate: np.ndarray  # bool
    stored: StoredSecondGuess | None  # the stored best second guess after one guess
    p_common: np.ndarray  # per word_id
    words: tuple[str, ...]


def _pattern_id(number: int, word: str, text: str) -> int:
    """Pattern id of the colours of guess `number`; a UsageError unless B, Y, G letters."""
    try:
        return parse_pattern(text)
    except ValueError:
        raise UsageError(
            f"colours {text!r} of guess {number} ({word!r}) must be letters B (grey), "
            "Y (yellow) or G (green)"
        ) from None


def split_turns(arguments: Sequence[str]) -> list[tuple[str, str]]:
    """(word, colours) pairs, checked for form only: the words are checked against the data."""
    if len(arguments) % 2:
        raise UsageError(
            "give each guess followed by its colours (e.g. tarse BYBBG): "
            f"{arguments[-1]!r} has no colours"
        )
    pairs = []
    for number, (word, text) in enumerate(zip(arguments[::2], arguments[1::2], strict=True), 1):
        _pattern_id(number, word, text)
        pairs.append((word.lower(), text.upper()))
    return pairs


def _turns(artifacts: Artifacts, pairs: Sequence[tuple[str, str]]) -> tuple[Turn, ...]:
    index = artifacts.index
    turns = []
    for number, (word, text) in enumerate(pairs, 1):
        row = bisect.bisect_left(index.words, word)  # the words are sorted
        if row == len(index.words) or index.words[row] != word:
            raise UsageError(
                f"guess {number} {word!r} is not in the word list ({len(index.words)} "
                f"{index.length}-letter words)"
            )
        if len(text) != index.length:
            raise UsageError(
                f"colours {text!r} of guess {number} ({word!r}) must have {index.length} "
                f"letters, not {len(text)}"
            )
        turns.append(Turn(row, word, _pattern_id(number, word, text), text))
    return tuple(turns)


def advise(
    artifacts: Artifacts, pairs: Sequence[tuple[str, str]], mode: str = "answers", top: int = 10
) -> Advice:
    """The remaining candidates and the best next guesses after the given turns."""
    if mode not in MODES:
        raise UsageError(f"mode must be one of {MODES}, not {mode!r}")
    index = artifacts.index
    n_words = len(index.words)
    turns = _turns(artifacts, pairs)
    p_common = artifacts.p_common
    if mode == "answers":
        pool = index.answer_rows.astype(np.int64)  # matrix column c is word pool[c]
    else:
        pool = np.arange(n_words, dtype=np.int64)
    stored = None
    if not turns:
        candidates = pool
        order = np.argsort(artifacts.rank[mode], kind="stable")
        best = order[:top]
        best_entropy = artifacts.entropy[mode][best]
        best_is_candidate = index.is_answer[best] if mode == "answers" else np.ones(best.size, bool)
    else:
        guess_ids = [turn.word_id for turn in turns]
        matrix = full = None
        if mode == "answers":
            matrix = artifacts.matrix("patterns", "answers")
            if len(turns) == 1:  # its candidates' columns will need every chunk: read each once
                full = matrix.full()
                rows = full[guess_ids]
            else:  # only the chunks holding the guesses: few candidates may be left
                rows = matrix.rows(guess_ids)
        elif (artifacts.folder / "patterns_square" / "index.json").is_file():
            rows = artifacts.matrix("patterns_square", "guesses").rows(guess_ids)
        else:
            encoded_all = encode_words(index.words)
            rows = feedback_matrix_numpy(encoded_all[guess_ids], encoded_all)
        wanted = np.array([turn.pattern_id for turn in turns], dtype=np.int64)
        keep = np.all(rows == wanted[:, None], axis=0)
        candidates = pool[keep]
        if candidates.size == 0:
            played = ", ".join(f"{turn.word} {turn.colours}" for turn in turns)
            where = "answer" if mode == "answers" else "allowed word"
            hint = " (or try --mode prior)" if mode == "answers" else ""
            raise PipelineError(f"no {where} is consistent with {played}: check the colours{hint}")
        if len(turns) == 1:
            stored = stored_second_guess(artifacts, mode, turns[0].word_id, turns[0].pattern_id)
            if stored is not None and stored.bucket_size != candidates.size:
                raise PipelineError(
                    f"{artifacts.folder / 'second_guesses.parquet'} has {stored.bucket_size} "
                    f"candidates after {turns[0].word} {turns[0].colours}, the patterns "
                    f"{candidates.size}: rerun the pipeline"
                )
        if candidates.size == 1:
            best = candidates
            best_entropy = np.zeros(1)
            best_is_candidate = np.ones(1, dtype=bool)
        else:
            if mode == "answers":
                # every guess over the candidates' columns
                patterns = full[:, keep] if full is not None else matrix.full(np.flatnonzero(keep))
                scores = entropies(patterns, 3**index.length)
            else:
                encoded_all = encode_words(index.words)
                patterns = feedback_rows(encoded_all, encoded_all[candidates])
                scores = entropies(patterns, 3**index.length, p_common[candidates])
            is_candidate = np.zeros(n_words, dtype=bool)
            is_candidate[candidates] = True
            best = best_order(scores, is_candidate)[:top]
            best_entropy = scores[best]
            best_is_candidate = is_candidate[best]
    weighted_bits = None
    if mode == "prior":
        weights = p_common[candidates] / p_common[candidates].sum()
        weighted_bits = float(-(weights * np.log2(np.where(weights > 0, weights, 1.0))).sum())
    return Advice(
        mode,
        turns,
        len(pool),
        candidates,
        math.log2(candidates.size),
        weighted_bits,
        np.asarray(best, dtype=np.int64),
        np.asarray(best_entropy, dtype=np.float64),
        np.asarray(best_is_candidate, dtype=bool),
        stored,
        p_common,
        index.words,
    )


def render(advice: Advice, list_limit: int = DEFAULT_LIST) -> str:
    """The assistant's answer as plain text."""
    words = advice.words
    n = advice.candidates.size
    pool = "answers" if advice.mode == "answers" else "allowed words"
    lines = []
    if advice.turns:
        lines.append("guesses: " + ", ".join(f"{t.word} {t.colours}" for t in advice.turns))
    remain = f"{n} of {advice.n_start} {pool} remain" if advice.turns else f"{n} {pool}"
    if advice.turns and n == 1:
        remain = f"1 of {advice.n_start} {pool} remains"
    summary = f"{remain}: {advice.bits:.2f} bits"
    if advice.weighted_bits is not None:
        summary += f" ({advice.weighted_bits:.2f} bits weighted by p_common)"
    lines.append(summary)
    if n == 1:
        word = words[advice.candidates[0]]
        solved = advice.turns and advice.turns[-1].word == word
        lines.append(f"solved: {word}" if solved else f"the answer is {word}")
        return "\n".join(lines)
    if n <= list_limit:
        if advice.mode == "prior":  # most common first
            shown = sorted(advice.candidates, key=lambda w: (-advice.p_common[w], w))
            listed = ", ".join(f"{words[w]} ({advice.p_common[w]:.3f})" for w in shown)
        else:
            listed = ", ".join(words[w] for w in advice.candidates)
        lines.append(f"remaining: {listed}")
    if advice.stored is not None:
        stored = advice.stored
        could = "could be the answer" if stored.is_candidate else "cannot be the answer"
        lines.append(
            f"stored best second guess: {words[stored.word_id]} ({stored.entropy:.4f} bits, "
            f"{could})"
        )
    if advice.turns:
        weighting = ", weighted by p_common" if advice.mode == "prior" else ""
        lines.append(f"best next guesses (entropy over the {n} remaining {pool}{weighting}):")
    else:
        source = "entropy_answers" if advice.mode == "answers" else "entropy_prior"
        lines.append(f"best openers ({source} of entropy.parquet):")
    lines.append(f"{'rank':>4}  {'word':<{len(words[0])}}  {'bits':>7}  {'p_common':>8}  answer?")
    for rank, (word_id, bits, could) in enumerate(
        zip(advice.best, advice.best_entropy, advice.best_is_candidate, strict=True), 1
    ):
        lines.append(
            f"{rank:>4}  {words[word_id]}  {bits:7.4f}  {advice.p_common[word_id]:8.4f}  "
            f"{'yes' if could else 'no'}"
        )
    return "\n".join(lines)


# --- the command ----------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, no usage block
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Best next Wordle guesses from the pipeline's artifacts. Give each guess "
        "followed by its colours: B grey, Y yellow, G green (any case). Without guesses it "
        "lists the best openers.",
        epilog="example: wordle-assist tarse BYBBG doily BBGBB --top 15",
    )
    parser.add_argument(
        "turns", nargs="*", metavar="WORD COLOURS", help="a guess and its colours, e.g. tarse BYBBG"
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="answers",
        help="answers: the answer is on the answer list (default); prior: any allowed word, "
        "weighted by p_common",
    )
    parser.add_argument(
        "--top",
        type=_positive,
        default=DEFAULT_TOP,
        metavar="N",
        help=f"guesses to list ({DEFAULT_TOP})",
    )
    parser.add_argument(
        "--list",
        type=_positive,
        default=DEFAULT_LIST,
        dest="list_limit",
        metavar="N",
        help=f"list the remaining candidates when at most this many ({DEFAULT_LIST})",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        metavar="DIR",
        help=f"folder of the built artifacts ({DEFAULT_DATA})",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status (0, 1 bad or missing data, 2 bad usage)."""
    parser = _parser()
    try:
        args = parser.parse_intermixed_args(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return stop.code if isinstance(stop.code, int) else 2
    try:
        pairs = split_turns(args.turns)
        artifacts = load_artifacts(args.data)
        advice = advise(artifacts, pairs, args.mode, args.top)
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except PipelineError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    print(render(advice, args.list_limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
