"""The dataset card's certification lines (pipeline.artifacts.dataset_card.certification),
on hand-made optimal_openers tables: the whole fixture package is checked in
tests/artifacts/test_datapackage_consumers.py."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.artifacts.dataset_card import certification


def test_a_top_list_is_certified_only_where_it_has_rows_in_the_top(tmp_path):
    path = tmp_path / "nyt2023" / "optimal_openers.parquet"
    path.parent.mkdir()
    rows = {
        "mode": ["normal", "normal", "normal", "hard", "hard"],
        "opener": ["salet", "crane", "trace", "salet", "crane"],
        "in_top": [True, True, False, False, False],
    }
    pq.write_table(pa.table(rows), path)
    assert certification(path) == [
        "- `nyt2023`, hard mode: not certified: 2 openers searched, a sample of the allowed words",
        "- `nyt2023`, normal mode: certified: its top 2 proven over all 3 openers",
    ]
