"""How good the opener bounds are, and whether any is wrong (issue 49 points 3 and 4).

Per edition and mode, after the optimal stage ran: how many words the bound left at or
below T (the certified top list's last total: the words a search had to look at), the
mean gap between a word's bound and its proven total on a fixed seeded sample of the
words the stage proved (the final bound the stage stored, third level included, and the
uncapped second-level bound), and every stored bound checked against Alex
Selby's published total of its opener (the mirror's `published/results_{easy,hard}_<list>`;
a bound above it is a bug, printed by name).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import polars as pl

from benchmarks.kernels import report
from pipeline.artifacts import catalog
from pipeline.artifacts import optimal as store
from pipeline.artifacts.words import read_word_index
from pipeline.kernels.optimal_search import WordLists, opener_bounds, prepare_lists

# edition -> the name of its answer list in the published files (editions not here: none)
PUBLISHED_LISTS = {"nyt2022": "nyt20220830", "nyt2023": "nyt20230701"}
FILE_MODE = {"normal": "easy", "hard": "hard"}
GAP_SAMPLE = 20  # words proven per edition and mode for the mean gap
GAP_SEED = 49


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


def gap_sample(rows: pl.DataFrame, lists: WordLists, mode: str, size: int = GAP_SAMPLE) -> dict:
    """word -> (proven total - final bound, proven total - second-level bound) of `size`
    seeded words among those the stage proved in `mode` (`rows`: its optimal_openers
    rows). The final bound is the one the stage stored (raised a level below the cap);
    the second-level one is recomputed uncapped. These cost no more proofs (a random
    word's proof takes 1 to 30 s of CPU in normal mode on nyt2022)."""
    proven = rows.filter(pl.col("nodes") > 0, pl.col("total_guesses").is_not_null())
    totals = {w: (t, b) for w, t, b in proven.select(
        "opener", "total_guesses", "second_level_bound").iter_rows()}  # fmt: skip
    sample = random.Random(GAP_SEED).sample(sorted(totals), min(size, len(totals)))
    found = np.array([lists.words.index(word) for word in sample], dtype=np.int64)
    most = int(proven["max_guesses"].max() or 0) or None  # the stage's setting
    _, second = opener_bounds(
        lists.matrix, lists.answer_rows, lists.encoded, found, hard=mode == "hard",
        **({"max_guesses": most} if most else {}),
    )  # fmt: skip
    gaps = {}
    for word, bound in zip(sample, second.tolist(), strict=True):
        total, stored = totals[word]
        gaps[word] = (None if stored is None else total - stored, total - bound)
    return gaps


def mean(values: list) -> float:
    """The mean of the values that are not None, NaN if none is."""
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else float("nan")


def edition_lists(words: Path) -> WordLists:
    """The edition's lists as its word index holds them, ready for the search."""
    index = read_word_index(words)
    answers = [index.words[row] for row in index.answer_rows.tolist()]
    return prepare_lists(index.words, answers)


def bench_bound_quality(workdir: Path, mirror: Path, edition: str) -> None:
    """Print the bound quality of `edition`, its optimal stage built in workdir."""
    table = pl.read_parquet(workdir / catalog.OPTIMAL_OPENERS.format(edition=edition))
    lists = edition_lists(workdir / catalog.WORDS.format(edition=edition))
    print(f"  bound quality of {edition}")
    for mode in ("normal", "hard"):
        rows = table.filter(pl.col("mode") == mode)
        limit, below = cutoff_count(rows)
        if rows["second_level_bound"].is_not_null().any():
            report(f"  {mode}: words with a bound <= T = {limit}", below, "")
        else:
            print(f"    {mode}: no bound pass (optimal.certify false)")
        gaps = list(gap_sample(rows, lists, mode).values())
        label = f"  {mode}: mean gap to proven total, {len(gaps)} words"
        report(f"{label}: final", mean([final for final, _ in gaps]), "guesses")
        report(f"{label}: 2nd level", mean([second for _, second in gaps]), "guesses")
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
