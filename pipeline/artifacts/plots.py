"""The report's items: `plots/*.png` and `tables/*.html`, written deterministically and sealed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.artifacts import seal
from pipeline.core.files import atomic_path, write_text_atomic

if TYPE_CHECKING:  # the tables' jobs start without matplotlib
    from matplotlib.figure import Figure

DPI = 110  # figures are at most 10 in wide: 1100 px, the report's content width at 1400 px


def write_png(figure: Figure, path: str | Path, *, inputs: Mapping[str, Path]) -> None:
    """Write the figure as PNG (no timestamp or software tag, so the bytes are stable)."""
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png", dpi=DPI, metadata={"Software": None})
    seal.write_seal(path, inputs=inputs)


def write_html(page: str, path: str | Path, *, inputs: Mapping[str, Path]) -> None:
    """Write a self-contained HTML page (a report table) and seal it."""
    write_text(page, path, inputs=inputs)


def write_text(text: str, path: str | Path, *, inputs: Mapping[str, Path]) -> None:
    """Write a text of the report (an HTML page, the landing page's headline) and seal it."""
    write_text_atomic(path, text)
    seal.write_seal(path, inputs=inputs)
