"""The Snakemake report of a fixture run, rendered in headless Chromium: the landing page,
both tables and every plot are on screen from their top, each with its caption, category
and label, and nothing needs the network. tests/report_browser.py does the rendering; run
it by hand on a real report (see docs/development.md)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from tests.report_browser import CHROMIUM, check_report, report_data
from tests.workflow_helpers import EDITION, clone_checkout, snakemake

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"needs {CHROMIUM} (Debian: apt-get install chromium; or set CHROMIUM)",
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
    f"data/derived/{EDITION}/tables/top-openers.html": ("iframe", "Openers", "1. Top 20 openers"),
    f"data/derived/{EDITION}/plots/opener-benchmark.png": ("img", "Openers", "2. Opener benchmark"),
    f"data/derived/{EDITION}/plots/entropy-vs-commonness.png": (
        "img",
        "Openers",
        "3. Information vs",
    ),
    f"data/derived/{EDITION}/plots/score-model.png": ("img", "Uncertainty map", "1. Guesses left"),
}


@pytest.fixture(scope="module")
def rendered(built, tmp_path_factory) -> tuple[Path, dict]:
    """The fixture's artifacts, their report, and what Chromium showed of each page."""
    workdir = clone_checkout(built, tmp_path_factory.mktemp("report") / "c")
    snakemake(workdir, "--report", "report.html", cores=1)
    return workdir, check_report(workdir / "report.html", workdir / "shots")


def decoded(data_uri: str) -> bytes:
    return base64.b64decode(data_uri.split("base64,", 1)[1])


def test_every_item_has_its_own_caption_category_and_label(rendered) -> None:
    workdir, _ = rendered
    results, categories = report_data(workdir / "report.html")
    assert set(results) == set(EXPECTED)
    for path, (_, category, label) in EXPECTED.items():
        assert results[path]["labels"]["item"].startswith(label)
        assert path in categories[category]["Other"]
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
        "The proven optimum, computed by this pipeline's exhaustive search",
        "Where to look first",
        "Benchmark",
        "Openers",
        "Uncertainty map",
        "Reading it",
    ):
        assert phrase in text, phrase
    assert "{{" not in text and "System Message" not in text
    assert (workdir / "shots" / "landing.png").read_bytes()[:4] == b"\x89PNG"


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
        assert caption_start.strip() in seen["menu"]
        assert (workdir / "shots" / f"{Path(path).stem}.png").exists()


def test_report_is_self_contained(rendered) -> None:
    workdir, _ = rendered
    html = (workdir / "report.html").read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
