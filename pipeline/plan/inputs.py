"""The rules' input functions and computed params: what each job reads, by the config
and, behind a checkpoint, by what the checkpoint built.

workflow/rules/common.smk makes one Inputs of Snakemake's config, workflow and
checkpoints objects and hands its methods to the rules: a method taking `wildcards` is
an input function; a method taking paths or a test returns one. Every path comes from
pipeline.artifacts.catalog, each with its seal (rules declare both, so remote storage
carries the seals).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import Any

from pipeline.analysis.benchmark.units import needs_optimal, play_units
from pipeline.artifacts import catalog, seal
from pipeline.artifacts.datapackage import published_config
from pipeline.artifacts.patterns import chunk_count
from pipeline.core.word_index import WordIndex
from pipeline.plan import optimal_stage
from pipeline.plan.checkpoints import checkpoint_output, checkpoint_word_index
from pipeline.plan.config_checks import stop
from pipeline.plan.editions import (
    allowed_of,
    edition_sources,
    enabled_editions,
    history_until,
    list_sources,
)

InputFunction = Callable[[Any], list[str]]


def sealed(*paths: str) -> list[str]:
    """Each file and its seal."""
    return [name for path in paths for name in (path, str(seal.seal_path(path)))]


class Inputs:
    """Input functions of a workflow run (see the module doc)."""

    def __init__(self, config: dict[str, Any], workflow: Any, checkpoints: Any) -> None:
        self.config, self.workflow, self.checkpoints = config, workflow, checkpoints
        # The solver benchmark's units of work (one job each): unit id -> strategy, openers.
        solver = config["solver"]
        self.units = play_units(solver["strategies"], solver["openers_per_job"])

    # Word lists and sources.
    def source_spec(self, wildcards: Any) -> str:
        return json.dumps(self.config["sources"][wildcards.source], sort_keys=True)

    def local_source(self, wildcards: Any) -> list[str]:
        """The user's own file of a `kind: local` source: an input, so editing it reruns.
        A path that names no file is a bad config value, so it stops the run as one line."""
        spec = self.config["sources"][wildcards.source]
        if spec["kind"] != "local":
            return []
        if not os.path.isfile(spec["path"]):
            stop(f"config: sources.{wildcards.source}.path: {spec['path']} is not a file")
        return [spec["path"]]

    def word_list(self, kind: str) -> InputFunction:
        """The raw word list `kind` (allowed or answers) of the edition, or the raw lists
        whose union it is."""

        def inputs(wildcards: Any) -> list[str]:
            names = list_sources(self.config["editions"][wildcards.edition], kind)
            return sealed(*[catalog.RAW.format(source=name) for name in names])

        return inputs

    def raw(self, source: str) -> list[str]:
        return sealed(catalog.RAW.format(source=source))

    def history_until(self, wildcards: Any) -> str:
        """A param: see editions.history_until."""
        return history_until(self.config, wildcards.edition)

    def edition_raw(self, wildcards: Any) -> list[str]:
        """The raw inputs of the enabled editions, each once."""
        return sealed(*[catalog.RAW.format(source=s) for s in edition_sources(self.config)])

    # An edition's files and those it shares with the editions of its allowed list.
    def commonness_of(self, edition: str) -> str:
        return catalog.COMMONNESS.format(wordlist=allowed_of(self.config, edition))

    def commonness(self, wildcards: Any) -> list[str]:
        return sealed(self.commonness_of(wildcards.edition))

    def square_entropy(self, wildcards: Any) -> list[str]:
        wordlist = allowed_of(self.config, wildcards.edition)
        return sealed(catalog.SQUARE_ENTROPY.format(wordlist=wordlist))

    def edition_files(self, paths: Iterable[str]) -> InputFunction:
        """`paths` of the job's edition: its own files, and the shared ones of its allowed
        list (the `wordlist` field)."""

        def inputs(wildcards: Any) -> list[str]:
            edition = wildcards.edition
            fields = {"edition": edition, "wordlist": allowed_of(self.config, edition)}
            return sealed(*[path.format(**fields) for path in paths])

        return inputs

    def opener_parts(self, wildcards: Any) -> list[str]:
        """The edition's answers-mode part files (config openers.parts jobs) and the
        prior-mode part of its allowed list."""
        edition = wildcards.edition
        parts = range(self.config["openers"]["parts"])
        answers = [catalog.ANSWERS_PART.format(edition=edition, part=part) for part in parts]
        prior = catalog.PRIOR_PART.format(wordlist=allowed_of(self.config, edition))
        return sealed(*answers, prior)

    # The word index and the pattern matrices, whose chunks follow from it.
    def word_index(self, edition: str) -> WordIndex:
        """The word index; it is a checkpoint, so this waits until it is built."""
        return checkpoint_word_index(
            self.checkpoints.build_word_index, edition,
            main_process=self.workflow.is_main_process,
            dry_run=self.workflow.output_settings.dryrun,
        )  # fmt: skip

    def matrix_files(self, edition: str, matrix: str) -> list[str]:
        """The index and chunk files of one stored matrix."""
        rows = len(self.word_index(edition).words)
        return catalog.matrix_files(
            edition, matrix, chunk_count(rows, self.config["patterns"]["chunk_rows"])
        )

    def pattern_chunks(self, wildcards: Any) -> list[str]:
        return sealed(*self.matrix_files(wildcards.edition, wildcards.matrix)[1:])

    def answer_matrix(self, wildcards: Any) -> list[str]:
        return sealed(*self.matrix_files(wildcards.edition, "patterns"))

    # The solver benchmark's units.
    def unit_file(self, path: str, needs: Callable[[Any], bool]) -> InputFunction:
        """`path` for the solver units whose strategy `needs` it only (the opener ranking,
        the optimal files), so the other units start without waiting for its stage."""

        def inputs(wildcards: Any) -> list[str]:
            if not needs(self.units[wildcards.unit]["strategy"]):
                return []
            return sealed(path.format(edition=wildcards.edition))

        return inputs

    def played_file(self, path: str, needs: Callable[[Any], bool]) -> InputFunction:
        """`path` when some solver unit's strategy `needs` it (the history benchmark
        replays every strategy)."""

        def inputs(wildcards: Any) -> list[str]:
            if not any(needs(unit["strategy"]) for unit in self.units.values()):
                return []
            return sealed(path.format(edition=wildcards.edition))

        return inputs

    def optimum_openers(self, wildcards: Any) -> list[str]:
        """optimal_openers.parquet for the summary's gaps, when an optimal strategy is
        played (then the optimal search runs anyway); otherwise the gaps stay empty."""
        return self.played_file(catalog.OPTIMAL_OPENERS, needs_optimal)(wildcards)

    # The optimal stage (see pipeline.plan.optimal_stage).
    def first_jobs(self, edition: str) -> list[tuple[str, str]]:
        """(mode, opener) of the openers proven first. openers.parquet is a checkpoint,
        so this waits until it is built (see final_outputs)."""
        rank = checkpoint_output(self.checkpoints.rank_openers, "openers", edition=edition)
        with optimal_stage.stop_as_one_line(self.config, edition):
            return optimal_stage.first_jobs(optimal_stage.optimal_plan(self.config, edition), rank)

    def next_jobs(self, edition: str, mode: str, first: list[tuple[str, str]]
                  ) -> list[tuple[str, str]]:  # fmt: skip
        """(mode, opener) of the openers of `mode` proven next, after `first` (first_jobs),
        when the edition certifies its top list: those its merge_bounds checkpoint leaves
        (none otherwise)."""
        plan = optimal_stage.optimal_plan(self.config, edition)
        if not plan.certify:
            return []
        merge = self.checkpoints.merge_bounds
        bounds = checkpoint_output(merge, "bounds", edition=edition, mode=mode)
        n_words = len(self.word_index(edition).words)
        with optimal_stage.stop_as_one_line(self.config, edition):
            return optimal_stage.next_jobs(plan, mode, bounds, first, n_words)

    def first_batches(self, edition: str) -> dict[tuple[str, str], list[str]]:
        """(mode, job name) -> openers of the solve_optimal jobs of the first round."""
        per_job = self.config["optimal"]["openers_per_job"]
        return optimal_stage.batches(self.first_jobs(edition), per_job)

    def optimal_batches(self, edition: str) -> dict[tuple[str, str], list[str]]:
        """Every solve_optimal job of the edition: the first round, then each mode's next."""
        modes = optimal_stage.optimal_plan(self.config, edition).modes
        first, per_job = self.first_jobs(edition), self.config["optimal"]["openers_per_job"]
        batches = optimal_stage.batches(first, per_job)
        for mode in modes:
            batches |= optimal_stage.batches(self.next_jobs(edition, mode, first), per_job)
        return batches

    def batch_openers(self, wildcards: Any) -> list[str]:
        """A param: the openers of one solve_optimal job, from its name alone (a param
        that read a checkpoint's output would need it as an input of the job)."""
        return optimal_stage.batch_openers(wildcards.batch)

    def first_parts(self, wildcards: Any) -> list[str]:
        """The summary parts of the first round's solve_optimal jobs (bound_openers' cap)."""
        edition = wildcards.edition
        return sealed(*[catalog.OPTIMAL_SUMMARY.format(edition=edition, mode=m, batch=b)
                        for m, b in self.first_batches(edition)])  # fmt: skip

    def optimal_parts(self, pattern: str) -> InputFunction:
        """The `pattern` file (summary or tree part) of every solve_optimal job."""

        def inputs(wildcards: Any) -> list[str]:
            edition = wildcards.edition
            return sealed(*[pattern.format(edition=edition, mode=m, batch=b)
                            for m, b in self.optimal_batches(edition)])  # fmt: skip

        return inputs

    def bound_parts(self, wildcards: Any) -> list[str]:
        fields = {"edition": wildcards.edition, "mode": wildcards.mode}
        parts = range(self.config["optimal"]["screen_parts"])
        return sealed(*[catalog.BOUNDS_PART.format(**fields, part=p) for p in parts])

    def merged_bounds(self, wildcards: Any) -> list[str]:
        """Each mode's merged bounds, once, when the edition certifies its top list."""
        plan = optimal_stage.optimal_plan(self.config, wildcards.edition)
        modes = plan.modes if plan.certify else ()
        return sealed(*[catalog.BOUNDS.format(edition=wildcards.edition, mode=m) for m in modes])

    def screen_parts(self, pattern: str) -> InputFunction:
        """The `pattern` file of every screen job of the edition (none when it does not
        certify its top list)."""

        def inputs(wildcards: Any) -> list[str]:
            edition = wildcards.edition
            plan = optimal_stage.optimal_plan(self.config, edition)
            jobs = optimal_stage.screen_jobs(plan, self.config["optimal"]["screen_parts"])
            return sealed(*[pattern.format(edition=edition, mode=m, part=p) for m, p in jobs])

        return inputs

    def optimal_param(self, key: str) -> Callable[[Any], Any]:
        """A param: the edition's resolved value of optimal.`key` (top or certify)."""
        return lambda wildcards: getattr(
            optimal_stage.optimal_plan(self.config, wildcards.edition), key
        )

    # The data package and the default target.
    def edition_artifacts(self, edition: str) -> list[str]:
        """Every published artifact of an edition, in the data package's order. A named
        optimal opener that is not a word of the index, or an optimal.top above its number
        of words, stops the run (one line naming the config key) here, where the index is
        first read, before any ranking or search."""
        with optimal_stage.stop_as_one_line(self.config, edition):
            optimal_stage.optimal_plan(self.config, edition).check(self.word_index(edition).words)
        square = ["patterns_square"] if self.config["patterns"]["square"] else []
        matrices = [
            p for matrix in ["patterns", *square] for p in self.matrix_files(edition, matrix)
        ]
        return catalog.published(edition, matrices)

    def sealed_artifacts(self, wildcards: Any) -> list[str]:
        """Every published artifact: the shared ones, every enabled edition's, and the
        editions table."""
        editions = enabled_editions(self.config)
        shared = list(dict.fromkeys(self.commonness_of(edition) for edition in editions))
        files = [path for edition in editions for path in self.edition_artifacts(edition)]
        return sealed(*shared, catalog.HISTORY, *files, catalog.EDITIONS_TABLE)

    def expand_editions(self, path: str) -> list[str]:
        """`path` of every enabled edition, oldest first."""
        return sealed(*[path.format(edition=edition) for edition in enabled_editions(self.config)])

    def published_config(self) -> str:
        """The effective config for the descriptor, less where inputs were read from and
        how the work was split (so another split rebuilds nothing and changes no byte)."""
        return json.dumps(published_config(self.config), sort_keys=True)

    def final_outputs(self) -> list[str]:
        """The default target. openers.parquet is named here, not only behind the word
        index (the data package's inputs), so its checkpoint job is in the job graph from
        the start and the optimal jobs it decides are resolved in every run, not only the
        one that builds it. The report's headline is built too, so `--report` needs no
        other run."""
        per_edition = [catalog.WORDS, catalog.OPENERS]
        editions = enabled_editions(self.config)
        files = [path.format(edition=e) for e in editions for path in per_edition]
        return sealed(*files, catalog.DATAPACKAGE, catalog.HEADLINE)
