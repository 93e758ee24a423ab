"""The README stays an introduction, and neither it nor docs/ carries dated measurements:
speed is what the benchmark command prints (docs/benchmarks.md), history is in
benchmarks/HISTORY.md and CHANGELOG.md."""

from __future__ import annotations

import re

from tests.support.fixtures import REPO

PAGES = (REPO / "README.md", *sorted((REPO / "docs").glob("*.md")))
DATED = re.compile(r"\b20\d\d-\d\d-\d\d\b|this machine|[Mm]easured (?:on|here)", re.IGNORECASE)


def test_the_readme_is_short():
    assert len((REPO / "README.md").read_text().splitlines()) <= 300


def test_no_page_carries_a_dated_measurement():
    found = [
        f"{page.relative_to(REPO)}:{number}: {line}"
        for page in PAGES
        for number, line in enumerate(page.read_text().splitlines(), 1)
        if DATED.search(line)
    ]
    assert found == [], "\n".join(found)
