"""The Snakemake report of a fixture run, rendered in headless Chromium: the landing page
leads with the headline numbers of the artifacts, every table and plot is on screen from
its top with its caption, category and label, a wide table scrolls within its frame
instead of being cut, and nothing needs the network. tests/support/report_browser.py does the
rendering; run it by hand on a real report (see docs/development.md). With REPORT_SHOTS
set, the screenshots are copied there (CI keeps them as an artifact)."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
from pathlib import Path

import polars as pl
import pytest

from tests.support.fixtures import FIXTURE_HISTORY, FIXTURE_UNTIL, built_once
from tests.support.report_browser import CHROMIUM, check_report, probe_table, report_data
from tests.support.workflow_helpers import EDITION, clone_checkout, snakemake

pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None or not CHROMIUM.exists(),
        reason="needs Chromium (Debian: apt-get install chromium; or set CHROMIUM)",
    ),
]

# report item -> (element that shows it, category, label)
EXPECTED = {
    f"data/derived/{EDITION}/tables/benchmark-summary.html": (
        "iframe",
        "Benchmark",
        "1. Benchmark summary",
    ),
    f"data/derived/{EDITION}/plots/guess-distribution.png": ("img", "Benchmark", "2. Guess counts"),
    f"data/derived/{EDITION}/plots/history-benchmark.png": (
        "img",
        "Benchmark",
        "3. The days the NYT played",
    ),
    f"data/derived/{EDITION}/tables/proven-openers.html": (
        "iframe",
        "Openers",
        "1. Proven openers",
    ),
    f"data/derived/{EDITION}/tables/top-openers.html": ("iframe", "Openers", "2. Top 20 openers"),
    f"data/derived/{EDITION}/plots/opener-benchmark.png": ("img", "Openers", "3. Opener benchmark"),
    f"data/derived/{EDITION}/plots/entropy-vs-commonness.png": (
        "img",
        "Openers",
        "4. Information vs",
    ),
    f"data/derived/{EDITION}/plots/score-model.png": ("img", "Uncertainty map", "1. Guesses left"),
    f"data/derived/{EDITION}/tables/prior-backtest.html": ("iframe", "Odds", "1. Today's odds"),
    "data/derived/tables/editions.html": ("iframe", "Editions", "The editions side by side"),
}
TABLES = [path for path, (tag, _, _) in EXPECTED.items() if tag == "iframe"]


@pytest.fixture(scope="module")
def rendered(built_checkout, tmp_path_factory) -> tuple[Path, dict]:
    """The fixture's artifacts, their report, and what Chromium showed of each page (made
    once for every worker: shown.json keeps what the browser showed)."""

    def build(workdir: Path) -> None:
        clone_checkout(built_checkout, workdir)
        snakemake(workdir, "--report", "report.html", cores=1)
        shots = workdir / "shots"
        shown = check_report(workdir / "report.html", shots)
        frame = int(shown[TABLES[0]]["width"])
        for path in TABLES:
            shown[f"table:{path}"] = probe_table(
                workdir / path, frame, shots / f"{Path(path).stem}-alone.png"
            )
        (workdir / "shown.json").write_text(json.dumps(shown))
        if os.environ.get("REPORT_SHOTS"):
            shutil.copytree(shots, os.environ["REPORT_SHOTS"], dirs_exist_ok=True)

    workdir = built_once(tmp_path_factory, "report-checkout", build)
    return workdir, json.loads((workdir / "shown.json").read_text())


def decoded(data_uri: str) -> bytes:
    return base64.b64decode(data_uri.split("base64,", 1)[1])


def test_every_item_has_its_own_caption_category_and_label(rendered) -> None:
    workdir, _ = rendered
    results, categories = report_data(workdir / "report.html")
    assert set(results) == set(EXPECTED)
    for path, (_, category, label) in EXPECTED.items():
        assert results[path]["labels"]["item"].startswith(label)
        assert any(path in items for items in categories[category].values()), path
        assert (workdir / path).read_bytes() == decoded(results[path]["data_uri"])
    captions = [result["caption"] for result in results.values()]
    assert len(set(captions)) == len(captions) and all("Drawn from" in c for c in captions)
    assert not any("{{" in c or "System Message" in c for c in captions)


def test_tables_are_embedded_as_pages_with_the_numbers(rendered) -> None:
    workdir, _ = rendered
    results, _ = report_data(workdir / "report.html")
    summary = decoded(
        results[f"data/derived/{EDITION}/tables/benchmark-summary.html"]["data_uri"]
    ).decode()
    assert "Best heuristic: " in summary and "<table>" in summary
    for strategy in ("greedy_entropy", "two_step", "letter_frequency", "minimax"):
        assert f"<td>{strategy}</td>" in summary
    openers = decoded(
        results[f"data/derived/{EDITION}/tables/top-openers.html"]["data_uri"]
    ).decode()
    assert "Top 20 openers" in openers
    assert re.search(r"<td class=\"number\">1</td><td>\w{5}</td>", openers)


def test_landing_page_says_what_was_made_and_where_to_look(rendered) -> None:
    workdir, shown = rendered
    landing = shown["landing"]
    assert landing["tag"] == "div" and landing["top"] >= 0
    text = landing["content"]
    for phrase in (
        "Wordle strategy data",
        "What this run made",
        "10 solver strategies",  # from the config
        "Headline.",
        "Where to look first",
        "Benchmark",
        "Openers",
        "Uncertainty map",
        "Reading it",
    ):
        assert phrase in text, phrase
    assert "{{" not in text and "System Message" not in text
    assert (workdir / "shots" / "landing.png").read_bytes()[:4] == b"\x89PNG"


def test_landing_page_leads_with_the_artifacts_headline_numbers(rendered) -> None:
    """The best proven opener of each mode with its mean and total, the openers with no
    winning tree in hard mode, and the best heuristic with its gap: read here straight
    from the fixture's Parquet files and found in what the browser shows."""
    workdir, shown = rendered
    text = " ".join(shown["landing"]["content"].split())
    derived = workdir / "data" / "derived" / EDITION
    optimal = pl.read_parquet(derived / "optimal_openers.parquet")
    answers = int(pl.read_parquet(derived / "words.parquet")["is_answer"].sum())
    for mode in ("normal", "hard"):
        proven = optimal.filter((pl.col("mode") == mode) & pl.col("total_guesses").is_not_null())
        best = proven.sort("total_guesses", "opener").row(0, named=True)
        assert (
            f"{mode.capitalize()} mode: best opener {best['opener']}, "
            f"{best['mean_guesses']:.4f} guesses per game "
            f"({best['total_guesses']:,} over {answers:,} answers)"
        ) in text
    hard = optimal.filter((pl.col("mode") == "hard") & pl.col("proven"))
    no_win = hard.filter(pl.col("total_guesses").is_null()).height
    assert f"No sure win in hard mode: {no_win} of {hard.height} openers the search" in text
    summary = pl.read_parquet(derived / "benchmark_summary.parquet")
    heuristic = (
        summary.filter(~pl.col("strategy").is_in(["opener_benchmark", "optimal", "optimal_hard"]))
        .sort("mean_guesses", "strategy")
        .row(0, named=True)
    )
    assert (
        f"Best heuristic: {heuristic['strategy']} ({heuristic['mode']} mode, opener "
        f"{heuristic['opener']}), {heuristic['mean_guesses']:.4f}, "
        f"{heuristic['gap_to_proven_optimum_mean']:.4f} above the proven optimum"
    ) in text
    played = len(FIXTURE_HISTORY) - 1  # history.until cuts the last day
    assert f"Answers as played to {FIXTURE_UNTIL}: the answer list misses none of {played}" in text


def test_proven_openers_table_shows_every_proven_value(rendered) -> None:
    workdir, _ = rendered
    results, _ = report_data(workdir / "report.html")
    page = decoded(results[f"data/derived/{EDITION}/tables/proven-openers.html"]["data_uri"])
    optimal = pl.read_parquet(workdir / "data" / "derived" / EDITION / "optimal_openers.parquet")
    proven = optimal.filter(pl.col("total_guesses").is_not_null())
    rows = re.findall(r"<tr[^>]*><td>(normal|hard)</td><td>(\w+)</td>", page.decode())
    assert sorted(rows) == sorted(proven.select("mode", "opener").rows())
    assert {mode for mode, _ in rows} == {"normal", "hard"}
    for mode, opener, total in proven.select("mode", "opener", "total_guesses").iter_rows():
        assert re.search(
            rf"<td>{mode}</td><td>{opener}</td>.*?<td class=\"number\">{total}</td>", page.decode()
        ), (mode, opener)


def test_wide_tables_scroll_inside_their_frame(rendered) -> None:
    """At the width of the report's frame, the page never runs past the window; a table
    wider than that scrolls sideways to its last column, its first column staying put."""
    _, shown = rendered
    wide = 0
    for path in TABLES:
        seen = shown[f"table:{path}"]
        assert seen["page"] <= seen["window"], f"{path} runs past the window"
        assert seen["overflow"] == "auto"
        assert seen["last_right"] <= seen["box_right"] + 1, f"{path}: last column out of reach"
        assert abs(seen["first_left"] - seen["box_left"]) <= 1, path
        wide += seen["table"] > seen["box"]
    assert wide >= 1, "no table is wider than the frame: the scroll check tested nothing"


def test_every_item_is_shown_from_its_top_with_its_caption(rendered) -> None:
    workdir, shown = rendered
    results, _ = report_data(workdir / "report.html")
    for path, (tag, _, label) in EXPECTED.items():
        seen = shown[path]
        assert seen["tag"] == tag, path
        mime = "data:image/png" if tag == "img" else "data:text/html"
        assert seen["src"].startswith(mime), path
        assert seen["top"] >= 0, f"{path} is cut off at the top"
        assert label in seen["menu"]
        caption_start = re.sub(r"<[^>]+>", "", results[path]["caption"]).split(".")[0]
        assert " ".join(caption_start.split()) in " ".join(seen["menu"].split())
        assert (workdir / "shots" / f"{Path(path).stem}.png").exists()


def test_report_is_self_contained(rendered) -> None:
    workdir, _ = rendered
    html = (workdir / "report.html").read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
