"""The benchmark's bound quality lines (benchmarks.bound_quality) on the fixture's build:
the count of words bounded at or below T, the mean gap of proven words, and the check of
every stored bound against published totals, which names a bound above its total."""

from __future__ import annotations

import re

import polars as pl

from benchmarks import bound_quality, certify
from pipeline.artifacts import catalog
from pipeline.artifacts import optimal as store
from tests.support.artifact_set import EDITION


def write_published(built_checkout, folder, lower_by_one: str) -> dict[str, dict[str, int]]:
    """Published files of EDITION made from its stored bounds (+ 1, so all are above; INF
    as Infinity), but `lower_by_one`'s hard-mode total one below its bound: the bug to be
    found."""
    folder.mkdir(parents=True)
    bug = ("hard", lower_by_one)
    bounds = {}
    for mode, name in bound_quality.FILE_MODE.items():
        path = built_checkout / catalog.BOUNDS.format(edition=EDITION, mode=mode)
        rows = store.read_bounds(path).to_pylist()
        bounds[mode] = {row["opener"]: row["second_level_bound"] for row in rows}
        lines = []
        for word, bound in bounds[mode].items():
            total = None if bound is None else bound + (-1 if (mode, word) == bug else 1)
            lines.append(f"{word} Infinity 1000000000" if total is None else f"{word} 3.0 {total}")
        (folder / f"results_{name}_{EDITION}").write_text("\n".join(lines) + "\n")
    return bounds


def test_the_bound_quality_lines(built_checkout, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(bound_quality.PUBLISHED_LISTS, EDITION, EDITION)
    table = pl.read_parquet(built_checkout / catalog.OPTIMAL_OPENERS.format(edition=EDITION))
    hard = table.filter(pl.col("mode") == "hard")
    word = hard.filter(pl.col("second_level_bound").is_not_null())["opener"][0]
    bounds = write_published(built_checkout, tmp_path / "mirror" / "published", word)
    bound_quality.bench_bound_quality(built_checkout, tmp_path / "mirror", EDITION)
    out = capsys.readouterr().out
    limit = hard.filter(pl.col("in_top"))["total_guesses"].max()
    below = sum(b is not None and b <= limit for b in bounds["hard"].values())
    assert f"hard: words with a bound <= T = {limit}" in out
    assert f"{below:>10.3f}" in out.split(f"T = {limit}")[1].splitlines()[0]
    assert f"hard: {len(bounds['hard'])} stored bounds checked, 1 above" in out
    assert f"normal: {len(bounds['normal'])} stored bounds checked, 0 above" in out
    bound = bounds["hard"][word]
    assert f"BOUND ABOVE THE OPTIMUM: {word} bound {bound}, published total {bound - 1}" in out
    proven = hard.filter(pl.col("nodes") > 0, pl.col("total_guesses").is_not_null())
    gaps = bound_quality.gap_sample(hard, bound_quality.edition_lists(
        built_checkout / catalog.WORDS.format(edition=EDITION)), "hard")  # fmt: skip
    assert len(gaps) == min(bound_quality.GAP_SAMPLE, proven.height) > 0
    totals = dict(proven.select("opener", "total_guesses").iter_rows())
    stored = dict(proven.select("opener", "second_level_bound").iter_rows())
    for w, (final, second) in gaps.items():
        assert final == totals[w] - stored[w]  # the stored bound's gap, as stored
        assert 0 <= final <= totals[w] and 0 <= second <= totals[w]  # bounds of the total
    label = f"mean gap to proven total, {len(gaps)} words"
    assert f"{label}: final" in out and f"{label}: 2nd level" in out


def test_the_stage_lines_per_mode(built_checkout, capsys):
    """Words searched, the CPU of the bound pass and of the searches and the mode's wall,
    from the jobs' benchmark records of the fixture's run."""
    table = pl.read_parquet(built_checkout / catalog.OPTIMAL_OPENERS.format(edition=EDITION))
    cpu = {rule: certify.job_seconds(built_checkout, rule, EDITION) for rule in certify.STAGE_RULES}
    for name, seconds in cpu["bound_openers"].items():  # the job's own count, not Snakemake's
        log = built_checkout / "logs" / "bound_openers" / EDITION / f"{name}.log"
        assert f"resources: {seconds:.3f} s CPU" in log.read_text()
    spans = {rule: certify.job_spans(built_checkout, rule, EDITION) for rule in certify.STAGE_RULES}
    for mode in store.MODES:
        rows = table.filter(pl.col("mode") == mode)
        solved = certify.solved_openers(built_checkout, EDITION, mode)
        certify.print_mode(rows, mode, cpu, spans, solved)
        out = capsys.readouterr().out
        jobs = [name for name in cpu["solve_optimal"] if name.startswith(f"{mode}-")]
        assert solved > len(jobs) > 0  # a job proves several openers (optimal.openers_per_job)
        assert re.search(
            rf"openers proven as jobs \(ranking's 2K, lowest bounds\) +{solved}\.000 ", out
        )
        assert re.search(rf"solve_optimal jobs +{len(jobs)}\.000 ", out)
        searched = rows.filter(pl.col("nodes") > 0).height
        bound_cpu = sum(s for name, s in cpu["bound_openers"].items() if name.startswith(mode))
        assert re.search(rf"words searched \(proofs and screen\) +{searched}\.000 ", out)
        assert re.search(rf"CPU of the bound pass +{bound_cpu:.3f} s", out)
        assert 0 < searched < rows.height and bound_cpu > 0
        wall = float(re.search(r"first job to last \(the modes interleave\) +([\d.]+) s", out)[1])
        longest = max(
            end - start
            for jobs in spans.values()
            for name, (start, end) in jobs.items()
            if name.split("-")[0] == mode
        )
        assert longest <= wall + 0.01
