"""Issue 62, measurement M0: where the hard-mode screen's CPU goes, infeasible or not.

The optimal stage certifies its top list in three steps (pipeline.analysis.optimal.certified_top):
every allowed word is bounded (second level, raised a third level below the cap), and
every word whose bound is at most T, the K-th best proven total, is searched with the
cutoff T + 1 (the screen, pipeline/stages/screen_openers.py). This runs the same bound
pass (opener_bounds with the stage's cap T + 1 and `deeper`) over every allowed word in
hard mode, takes T as the K-th best of Alex Selby's published totals (the least T1 the
stage can reach: its own T1 is the K-th best of the openers it proved), and labels the
words at or below T with their published total: Infinity (no tree wins every answer in
six guesses) or finite. Then it times the screen's own search (solve_openers with the
cutoff T + 1, one opener at a time from an empty memo, as the screen stage calls it) on
a seeded sample of them, and splits its CPU between the infeasible and the feasible
words.

The sample and the words at or below T are saved in benchmarks/screen_sample.json (the
bound pass costs several CPU minutes; later runs and M3 reuse it; --rebuild makes it
again). --off names search mechanisms to switch off (tuning.MECHANISMS), --on those
off by default to switch on (tuning.DEFAULT_OFF), so that one sample is timed with and
without a pruning; --results saves each word's CPU and outcome
as JSON, and --against compares this run with such a file (the CPU by label, and any
total that differs). The file holds words only: their labels are read from the mirror's
published totals at each run, as every reference value is.

    python -m benchmarks.screen_split [--mirror ../shared/wordle-data] [--size 100]
        [--rebuild] [--off NAME ...] [--on NAME ...] [--results FILE] [--against FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Collection
from pathlib import Path

import numpy as np

from benchmarks.bound_quality import read_published
from benchmarks.family_bound import read_words
from pipeline.kernels.optimal_search import WordLists, opener_bounds, prepare_lists, solve_openers
from pipeline.stages.bound_openers import DEEPER

SAMPLE_PATH = Path(__file__).with_name("screen_sample.json")
LIST = "nyt20230701"  # nyt2023's answer list, as the published files name it
TOP = 20  # optimal.top's default, K
SEED = 62


def read_lists(mirror: Path) -> tuple[WordLists, dict[str, int | None]]:
    """nyt2023's lists ready for the search, and the published hard-mode totals."""
    allowed = read_words(mirror / "allowed.txt")
    answers = read_words(mirror / "nyt20230701" / "answers.txt")
    published = read_published(mirror / "published" / f"results_hard_{LIST}")
    return prepare_lists(allowed, answers), published


def threshold(published: dict[str, int | None], top: int = TOP) -> int:
    """T: the top-th best published total (the stop rule's T once the top list is
    certified)."""
    return sorted(total for total in published.values() if total is not None)[top - 1]


def hard_bounds(lists: WordLists, openers: np.ndarray, cap: int, threads: int) -> np.ndarray:
    """The bound pass's stored bound of each opener row in hard mode (second level,
    raised a level below `cap`), as bound_openers computes it."""
    _, second = opener_bounds(
        lists.matrix, lists.answer_rows, lists.encoded, openers, hard=True, cap=cap,
        deeper=DEEPER, threads=threads,
    )  # fmt: skip
    return second


def seeded_sample(words: Collection[str], size: int, seed: int = SEED) -> list[str]:
    """`size` of the words (all when fewer), chosen by `seed` from their sorted list."""
    ordered = sorted(words)
    return sorted(random.Random(seed).sample(ordered, min(size, len(ordered))))


def build_sample(lists: WordLists, published: dict, size: int, threads: int) -> dict:
    """The words at or below T after the bound pass, and the seeded sample of them."""
    limit = threshold(published)
    started = time.process_time()
    rows = np.arange(len(lists.words), dtype=np.int64)
    second = hard_bounds(lists, rows, limit + 1, threads)
    seconds = time.process_time() - started
    below = [lists.words[row] for row in np.flatnonzero(second <= limit).tolist()]
    return {
        "list": LIST, "mode": "hard", "top": TOP, "threshold": limit, "cap": limit + 1,
        "deeper": DEEPER, "seed": SEED, "bound_pass_cpu_s": round(seconds, 1),
        "sample": seeded_sample(below, size), "at_or_below": below,
    }  # fmt: skip


def time_screen(lists: WordLists, words: list[str], cutoff: int, off: Collection[str] = (),
                on: Collection[str] = ()) -> dict[str, dict]:  # fmt: skip
    """word -> its screen search's CPU seconds and outcome (the stage's call: cutoff,
    independent memo), one opener at a time."""
    rows = [lists.words.index(word) for word in words]
    options = {"hard": True, "cutoff": cutoff, "independent": True, "off": off, "on": on}
    next(solve_openers(lists.matrix, lists.answer_rows, lists.encoded, rows[:1], **options))
    found = {}
    for word, row in zip(words, rows, strict=True):  # a context each: no build time counted
        result = next(solve_openers(lists.matrix, lists.answer_rows, lists.encoded, [row],
                                    **options))  # fmt: skip
        found[word] = {"cpu_s": result.seconds, "total": result.total, "nodes": result.nodes,
                       "lower_bound": result.lower_bound, "proven": result.proven}  # fmt: skip
        print(f"  {word}: {result.seconds:.2f} CPU s, total {result.total}, "
              f"bound {result.lower_bound}", file=sys.stderr, flush=True)  # fmt: skip
    return found


def labels(sample: dict, published: dict[str, int | None]) -> dict[str, int | None]:
    """Each word at or below T -> its published total (None: no tree in six guesses)."""
    return {word: published[word] for word in sample["at_or_below"]}


def report_split(sample: dict, below: dict[str, int | None], found: dict[str, dict]) -> None:
    """The counts at or below T, and the CPU split of the timed sample by label."""
    infeasible = [w for w, total in below.items() if total is None]
    print(f"{sample['list']}, hard mode, T = {sample['threshold']} (the {sample['top']}th best "
          f"published total): {len(below)} words bounded at or below T, {len(infeasible)} "
          f"infeasible ({100 * len(infeasible) / len(below):.1f} %); bound pass "
          f"{sample['bound_pass_cpu_s']} CPU s")  # fmt: skip
    total = sum(entry["cpu_s"] for entry in found.values())
    print(f"screen of {len(found)} seeded words: {total:.1f} CPU s")
    for name, wanted in (("infeasible", True), ("feasible", False)):
        group = [w for w in found if (below[w] is None) == wanted]
        cpu = [found[w]["cpu_s"] for w in group]
        share = 100 * sum(cpu) / total if total else 0.0
        each = sum(cpu) / len(cpu) if cpu else 0.0
        print(f"  {name}: {len(group)} words, {sum(cpu):.1f} CPU s ({share:.1f} %), "
              f"{each:.2f} s each, max {max(cpu, default=0.0):.2f} s")  # fmt: skip
    proven = [w for w, entry in found.items() if entry["total"] is not None]
    wrong = [w for w, e in found.items() if e["total"] is not None and e["total"] != below[w]]
    print(f"  proven there: {len(proven)}; totals unlike the published: {wrong}")


def compare(below: dict, before: dict[str, dict], after: dict[str, dict]) -> list[str]:
    """Print the CPU of two runs of the same words, by label, and return the words whose
    proven total differs."""
    words = [w for w in after if w in before]
    for name, wanted in (("infeasible", True), ("feasible", False), ("all", None)):
        group = [w for w in words if wanted is None or (below[w] is None) == wanted]
        old = sum(before[w]["cpu_s"] for w in group)
        new = sum(after[w]["cpu_s"] for w in group)
        print(f"  {name}: {len(group)} words, {old:.1f} CPU s before, {new:.1f} after, "
              f"ratio {new / old if old else float('nan'):.3f}")  # fmt: skip
    return [w for w in words if before[w]["total"] != after[w]["total"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("../shared/wordle-data"))
    parser.add_argument("--size", type=int, default=100, help="words timed, seeded")
    parser.add_argument("--rebuild", action="store_true", help="redo the bound pass")
    parser.add_argument("--threads", type=int, default=2, help="of the bound pass")
    parser.add_argument("--off", nargs="*", default=[], help="mechanisms switched off")
    parser.add_argument("--on", nargs="*", default=[], help="off-by-default ones switched on")
    parser.add_argument("--results", type=Path, help="write each word's outcome here")
    parser.add_argument("--against", type=Path, help="an earlier --results file to compare")
    args = parser.parse_args(argv)
    lists, published = read_lists(args.mirror)
    if args.rebuild or not SAMPLE_PATH.is_file():
        sample = build_sample(lists, published, args.size, args.threads)
        SAMPLE_PATH.write_text(json.dumps(sample, indent=0, sort_keys=True) + "\n")
    sample = json.loads(SAMPLE_PATH.read_text())
    words = sample["sample"][: args.size]
    found = time_screen(lists, words, sample["cap"], args.off, args.on)
    below = labels(sample, published)
    report_split(sample, below, found)
    if args.results:
        args.results.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    if args.against:
        changed = compare(below, json.loads(args.against.read_text()), found)
        print(f"  totals unlike the earlier run's: {changed}")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
