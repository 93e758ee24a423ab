"""How good the opener bounds are, and whether any is wrong (issue 49 points 3 and 4).

Per edition and mode, after the optimal stage ran: how many words the bound left at or
below T (the certified top list's last total: the words a search had to look at), the
mean gap between a word's second-level bound and its proven total on a fixed seeded
sample that this module proves (one process per proof, CPU-capped), and every stored
bound checked against Alex Selby's published total of its opener (the mirror's
`published/results_{easy,hard}_<list>`; a bound above it is a bug, printed by name).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import polars as pl

from benchmarks.kernels import report
from benchmarks.optimal import child
from pipeline.artifacts import catalog
from pipeline.artifacts import optimal as store
from pipeline.artifacts.words import read_word_index
from pipeline.kernels.optimal_search import INF, opener_bounds, prepare_lists

# edition -> the name of its answer list in the published files (editions not here: none)
PUBLISHED_LISTS = {"nyt2022": "nyt20220830", "nyt2023": "nyt20230701"}
FILE_MODE = {"normal": "easy", "hard": "hard"}
GAP_SAMPLE = 20  # words proven per edition and mode for the mean gap
GAP_SEED = 49
PROOF_CPU_LIMIT = 300.0  # CPU seconds per proof; one over it is left out, and counted


def read_published(path: Path) -> dict[str, int | None]:
    """word -> proven total, None where no tree wins every answer within six guesses."""
    totals = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, *rest = line.split()
        totals[word] = None if rest[0] == "Infinity" else int(rest[1])
    return totals


def published_totals(mirror: Path, edition: str, mode: str) -> dict[str, int | None] | None:
    """The published totals of the edition's answer list in `mode`, None if none."""
    name = PUBLISHED_LISTS.get(edition)
    path = mirror / "published" / f"results_{FILE_MODE[mode]}_{name}"
    return read_published(path) if name and path.is_file() else None


def bounds_above(bounds: pl.DataFrame, published: dict[str, int | None]) -> list[tuple]:
    """(word, bound, published total) of every bound above its opener's published total
    (a null bound is INF: above any finite total)."""
    above = []
    for word, bound in bounds.select("opener", "second_level_bound").iter_rows():
        total = published.get(word)
        if total is not None and (bound is None or bound > total):
            above.append((word, bound, total))
    return above


def cutoff_count(table: pl.DataFrame) -> tuple[int | None, int]:
    """(T, how many words have a second-level bound <= T) of one mode's optimal_openers
    rows; T is the certified top list's last total (None: no top list)."""
    top = table.filter(pl.col("in_top"))["total_guesses"].drop_nulls()
    if not len(top):
        return None, 0
    limit = int(top.max())
    return limit, table.filter(pl.col("second_level_bound") <= limit).height


def gap_sample(lists_folder: Path, mode: str, size: int = GAP_SAMPLE) -> dict:
    """Bound (uncapped) and proven total of `size` seeded allowed words of the lists in
    `lists_folder` (allowed.txt, answers.txt): the gaps, and the proofs over the limit."""
    allowed = (lists_folder / "allowed.txt").read_text(encoding="utf-8").split()
    answers = (lists_folder / "answers.txt").read_text(encoding="utf-8").split()
    w = prepare_lists(allowed, answers)
    sample = random.Random(GAP_SEED).sample(w.words, size)
    rows = np.array([w.words.index(word) for word in sample])
    _, second = opener_bounds(w.matrix, w.answer_rows, w.encoded, rows, hard=mode == "hard")
    gaps, over, cpu = [], [], 0.0
    for word, bound in zip(sample, second.tolist(), strict=True):
        row = child(lists_folder, mode, word, PROOF_CPU_LIMIT)
        if row.get("cpu_s") is None:
            over.append(word)
            continue
        cpu += row["cpu_s"]
        if row["total"] is not None:
            gaps.append(row["total"] - bound)
        elif bound < INF:
            gaps.append(None)  # no tree; the bound did not prove it (a gap of infinity)
    return {"gaps": gaps, "over": over, "cpu": cpu}


def write_lists(words: Path, folder: Path) -> Path:
    """`folder` with the edition's lists as its word index holds them (allowed.txt: every
    word, answers.txt: its answers), the layout benchmarks.optimal's proofs read."""
    index = read_word_index(words)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "allowed.txt").write_text("\n".join(index.words), encoding="utf-8")
    answers = [index.words[row] for row in index.answer_rows.tolist()]
    (folder / "answers.txt").write_text("\n".join(answers), encoding="utf-8")
    return folder


def bench_bound_quality(workdir: Path, mirror: Path, edition: str) -> None:
    """Print the bound quality of `edition`, its optimal stage built in workdir."""
    table = pl.read_parquet(workdir / catalog.OPTIMAL_OPENERS.format(edition=edition))
    words = workdir / catalog.WORDS.format(edition=edition)
    lists = write_lists(words, workdir / "bench-lists" / edition)
    print(f"  bound quality of {edition}")
    for mode in ("normal", "hard"):
        rows = table.filter(pl.col("mode") == mode)
        limit, below = cutoff_count(rows)
        report(f"  {mode}: words with a bound <= T = {limit}", below, "")
        sample = gap_sample(lists, mode)
        gaps = [g for g in sample["gaps"] if g is not None]
        mean = sum(gaps) / len(gaps) if gaps else float("nan")
        report(f"  {mode}: mean gap, proven - bound, {len(gaps)} words", mean, "guesses")
        report(f"  {mode}: CPU of those proofs", sample["cpu"], "s")
        if sample["over"]:
            print(f"    over {PROOF_CPU_LIMIT:.0f} CPU s, left out: {', '.join(sample['over'])}")
        check_published(workdir, mirror, edition, mode)


def check_published(workdir: Path, mirror: Path, edition: str, mode: str) -> None:
    """Every stored bound of the mode against the published totals; print any above."""
    published = published_totals(mirror, edition, mode)
    path = workdir / catalog.BOUNDS.format(edition=edition, mode=mode)
    if published is None or not path.is_file():
        why = "no published totals" if published is None else "no bound pass (certify false)"
        print(f"    {mode}: stored bounds not checked against the published totals: {why}")
        return
    bounds = pl.from_arrow(store.read_bounds(path))
    above = bounds_above(bounds, published)
    print(
        f"    {mode}: {bounds.height} stored bounds checked, {len(above)} above the published total"
    )
    for word, bound, total in above:
        print(f"      BOUND ABOVE THE OPTIMUM: {word} bound {bound}, published total {total}")
