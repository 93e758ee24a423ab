"""The optimal stage's plan of one edition: optimal.top, certify and openers, resolved once.

An edition's optimal settings are config `optimal` with the edition's own values applied
(the schema says which keys an edition may set). What follows from them is decided here,
for the Snakefile's job plan (pipeline.plan.optimal_stage), the stages and the tests alike:
K, the size of the certified top list, always counted in the word index's allowed words;
the openers proven first; and, per mode, the lowest-bounded ones proven next (see
analysis.optimal.certified_top for the stop rule). Plain values in, plain values out: the files
are read by the callers.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.analysis.optimal.certified_top import contenders
from pipeline.analysis.optimal.tables import ALL_OPENERS, select_openers


def top_count(top: int | str, n_words: int) -> int:
    """K of optimal.top, given the number of allowed words of the word index ("all":
    every one). The one place the setting becomes a number."""
    return n_words if top == ALL_OPENERS else int(top)


@dataclass(frozen=True)
class OptimalPlan:
    """One edition's optimal settings: the top list's size as configured (a number or
    "all"), whether it is certified, the openers named in config, the modes solved."""

    top: int | str
    certify: bool
    openers: tuple[str, ...]
    modes: tuple[str, ...]

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> OptimalPlan:
        """From an edition's optimal settings (editions.edition_settings)."""
        return cls(
            top=settings["top"],
            certify=bool(settings["certify"]),
            openers=tuple(settings["openers"]),
            modes=tuple(settings["modes"]),
        )

    def count(self, n_words: int) -> int:
        """K: see top_count."""
        return top_count(self.top, n_words)

    def check(self, words: Sequence[str]) -> None:
        """Raise the config error (PipelineError) of a top above the number of `words` or
        a named opener that is not one of them."""
        select_openers(words, [], self.top, self.openers)

    def first_openers(self, ranking: Sequence[str]) -> list[str]:
        """The openers proven first: the top of the answers-mode ranking (every word of
        the index, best first), then the named ones not among them. With certify, the
        top 2K: the ranking is a heuristic, and the K-th best total of its top 2K is the
        closer cap for the bound pass, which then stops most words sooner (certified_top)."""
        self.check(ranking)
        first = self.count(len(ranking))
        if self.certify:
            first = min(2 * first, len(ranking))
        return select_openers(ranking, range(len(ranking)), first, self.openers)

    def first_jobs(self, ranking: Sequence[str]) -> list[tuple[str, str]]:
        """(mode, opener) of the solve_optimal jobs that come first, in every mode."""
        return [(mode, opener) for mode in self.modes for opener in self.first_openers(ranking)]

    def next_openers(self, bounds: Mapping[str, Sequence[Any]], proven: Collection[str],
                     n_words: int, cap: int | None = None) -> list[str]:  # fmt: skip
        """With certify, the openers of one mode's merged bounds (columns opener_id,
        opener, second_level_bound) to prove next: the K lowest-bounded ones not in
        `proven` (ties by word id) whose bound is below `cap` (the bound pass's: one at
        or above it cannot be in the top K); none without certify."""
        if not self.certify:
            return []
        words = dict(zip(bounds["opener_id"], bounds["opener"], strict=True))
        lower = dict(zip(bounds["opener_id"], bounds["second_level_bound"], strict=True))
        done = {i for i, word in words.items() if word in proven}
        below = contenders(lower, done, None if cap is None else cap - 1)
        return [words[i] for i in below[: self.count(n_words)]]
