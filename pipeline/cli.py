"""`wordle-pipeline`: the command each Snakemake rule runs, one subcommand per stage.

Every subcommand calls one `pipeline` function. A PipelineError (bad input, missing data,
no network) is printed as one clear line and exits with status 1, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.errors import PipelineError

log = logging.getLogger("pipeline")


def _fetch_source(args: argparse.Namespace) -> None:
    from pipeline.sources import fetch_source, resolve_mirror

    fetch_source(
        args.name,
        json.loads(args.spec),
        args.output,
        args.provenance,
        mirror=resolve_mirror(args.mirror),
        timeout=args.timeout,
        retries=args.retries,
        expected_fingerprint=args.fingerprint or None,
    )


def _build_word_index(args: argparse.Namespace) -> None:
    from pipeline.words import write_word_index

    write_word_index(args.allowed, args.answers, args.output)


def _build_commonness(args: argparse.Namespace) -> None:
    from pipeline.commonness import write_commonness

    write_commonness(
        args.words, args.frequency, args.output, n_common=args.n_common, width=args.width
    )


def _compute_pattern_chunk(args: argparse.Namespace) -> None:
    from pipeline.matrix import write_pattern_chunk

    write_pattern_chunk(
        args.words,
        args.output,
        chunk=args.chunk,
        chunk_rows=args.chunk_rows,
        columns=args.columns,
        zstd_level=args.zstd_level,
    )


def _index_pattern_chunks(args: argparse.Namespace) -> None:
    from pipeline.matrix import write_chunk_index

    write_chunk_index(
        args.words, args.chunks, args.output, chunk_rows=args.chunk_rows, columns=args.columns
    )


def _compute_entropy(args: argparse.Namespace) -> None:
    from pipeline.entropy import write_entropy

    write_entropy(
        args.words,
        args.commonness,
        args.patterns,
        args.output,
        args.distribution,
        square_index=args.square,
    )


def _rank_opener_part(args: argparse.Namespace) -> None:
    import pyarrow.parquet as pq

    from pipeline.openers import opener_part_bounds, write_opener_part

    n_openers = pq.read_metadata(args.words).num_rows
    start, stop = opener_part_bounds(n_openers, args.part, args.parts)
    write_opener_part(args.words, args.patterns, args.output, start=start, stop=stop)


def _rank_prior_openers(args: argparse.Namespace) -> None:
    from pipeline.openers import write_prior_part

    write_prior_part(args.words, args.commonness, args.output, top_k=args.top_k)


def _merge_opener_rankings(args: argparse.Namespace) -> None:
    from pipeline.openers import merge_opener_parts

    merge_opener_parts(args.parts, args.openers, args.second_guesses, words_path=args.words)


def _play_benchmarks(args: argparse.Namespace) -> None:
    from pipeline.solver import write_benchmarks

    settings = json.loads(args.settings)
    write_benchmarks(
        args.words,
        args.commonness,
        args.patterns,
        args.games,
        args.summary,
        args.score_model,
        strategies=settings["strategies"],
        optimum=settings["optimum"],
        max_turns=settings["max_turns"],
        bin_bits=settings["bin_bits"],
        openers_path=args.openers,
        second_guesses_path=args.second_guesses,
    )


def _plot(args: argparse.Namespace) -> None:
    from pipeline import report

    if args.kind == "entropy-vs-commonness":
        report.plot_entropy_vs_commonness(args.inputs[0], args.inputs[1], args.output)
    else:
        plotters = {
            "guess-distribution": report.plot_guess_distribution,
            "opener-benchmark": report.plot_opener_benchmark,
            "score-model": report.plot_score_model,
        }
        plotters[args.kind](args.inputs[0], args.output)


def _build_manifest(args: argparse.Namespace) -> None:
    from pipeline.manifest import write_manifest

    write_manifest(args.artifacts, args.provenance, json.loads(args.config), args.output)


def _verify(args: argparse.Namespace) -> None:
    from pipeline.manifest import verify_manifest

    problems = verify_manifest(args.manifest, args.directory, remove_damaged=args.remove_damaged)
    for problem in problems:
        log.error("%s", problem)
    if problems:
        raise PipelineError(f"{len(problems)} artifact(s) missing or altered")
    log.info("all artifacts match %s", args.manifest)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="wordle-pipeline", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], None], help: str):
        sub = commands.add_parser(name, help=help, description=help)
        sub.set_defaults(run=run)
        return sub

    fetch = command("fetch-source", _fetch_source, "Download (or copy from a mirror) a raw input")
    fetch.add_argument("--name", required=True, help="source name, e.g. allowed")
    fetch.add_argument("--spec", required=True, help="the source's config entry as JSON")
    fetch.add_argument("--mirror", default="", help="mirror folder (WORDLE_MIRROR overrides)")
    fetch.add_argument("--fingerprint", default="", help="source fingerprint planned by Snakemake")
    fetch.add_argument("--timeout", type=float, default=60.0, help="seconds per attempt")
    fetch.add_argument("--retries", type=int, default=3, help="extra attempts after a failure")
    fetch.add_argument("--provenance", type=Path, required=True, help="provenance JSON to write")
    fetch.add_argument("--output", type=Path, required=True, help="raw file to write")

    words = command("build-word-index", _build_word_index, "Build words.parquet from two lists")
    words.add_argument("--allowed", type=Path, required=True, help="allowed-guess list")
    words.add_argument("--answers", type=Path, required=True, help="answer list")
    words.add_argument("--output", type=Path, required=True, help="words.parquet to write")

    common = command("build-commonness", _build_commonness, "Build commonness.parquet")
    common.add_argument("--words", type=Path, required=True, help="words.parquet")
    common.add_argument("--frequency", type=Path, required=True, help="frequency counts file")
    common.add_argument("--n-common", type=int, required=True, help="words counted as common")
    common.add_argument("--width", type=float, required=True, help="sigmoid x range width")
    common.add_argument("--output", type=Path, required=True, help="commonness.parquet")

    for name, run, help in (
        ("compute-pattern-chunk", _compute_pattern_chunk, "Compute one chunk of pattern rows"),
        ("index-pattern-chunks", _index_pattern_chunks, "Check chunks and write their index"),
    ):
        sub = command(name, run, help)
        sub.add_argument("--words", type=Path, required=True, help="words.parquet")
        sub.add_argument("--chunk-rows", type=int, required=True, help="guess rows per chunk")
        sub.add_argument(
            "--columns",
            choices=("answers", "guesses"),
            default="answers",
            help="matrix columns: the answers, or every guess (square matrix)",
        )
        if name == "compute-pattern-chunk":
            sub.add_argument("--chunk", type=int, required=True, help="chunk number, from 0")
            sub.add_argument("--zstd-level", type=int, default=6, help="zstd level")
            sub.add_argument("--output", type=Path, required=True, help="chunk file to write")
        else:
            sub.add_argument("--chunks", type=Path, nargs="+", required=True, help="chunk files")
            sub.add_argument("--output", type=Path, required=True, help="index JSON to write")
    entropy = command("compute-entropy", _compute_entropy, "Write entropy maps per guess")
    entropy.add_argument("--words", type=Path, required=True, help="words.parquet")
    entropy.add_argument("--commonness", type=Path, required=True, help="commonness.parquet")
    entropy.add_argument("--patterns", type=Path, required=True, help="pattern index.json")
    entropy.add_argument("--square", type=Path, default=None, help="square pattern index.json")
    entropy.add_argument("--output", type=Path, required=True, help="entropy.parquet")
    entropy.add_argument("--distribution", type=Path, required=True, help="distribution file")

    part = command("rank-opener-part", _rank_opener_part, "Rank one range of openers")
    part.add_argument("--words", type=Path, required=True, help="words.parquet")
    part.add_argument("--patterns", type=Path, required=True, help="pattern index.json")
    part.add_argument("--part", type=int, required=True, help="part number, from 0")
    part.add_argument("--parts", type=int, required=True, help="number of parts")
    part.add_argument("--output", type=Path, required=True, help="part file to write")

    prior = command("rank-prior-openers", _rank_prior_openers, "Rank top openers, prior mode")
    prior.add_argument("--words", type=Path, required=True, help="words.parquet")
    prior.add_argument("--commonness", type=Path, required=True, help="commonness.parquet")
    prior.add_argument("--top-k", type=int, required=True, help="openers ranked by entropy_prior")
    prior.add_argument("--output", type=Path, required=True, help="part file to write")

    merge = command("merge-opener-rankings", _merge_opener_rankings, "Merge opener parts")
    merge.add_argument("--words", type=Path, required=True, help="words.parquet")
    merge.add_argument("--parts", type=Path, nargs="+", required=True, help="part files")
    merge.add_argument("--openers", type=Path, required=True, help="openers.parquet")
    merge.add_argument("--second-guesses", type=Path, required=True, help="second guesses")

    play = command("play-benchmarks", _play_benchmarks, "Play every strategy on every answer")
    play.add_argument("--words", type=Path, required=True, help="words.parquet")
    play.add_argument("--commonness", type=Path, required=True, help="commonness.parquet")
    play.add_argument("--patterns", type=Path, required=True, help="pattern index.json")
    play.add_argument("--openers", type=Path, default=None, help="openers.parquet")
    play.add_argument("--second-guesses", type=Path, default=None, help="second_guesses.parquet")
    play.add_argument("--settings", required=True, help="the config's solver section as JSON")
    play.add_argument("--games", type=Path, required=True, help="benchmark_games.parquet")
    play.add_argument("--summary", type=Path, required=True, help="benchmark_summary.parquet")
    play.add_argument("--score-model", type=Path, required=True, help="score_model.parquet")

    plot = command("plot", _plot, "Draw one plot of the report as PNG")
    plot.add_argument(
        "kind",
        choices=("guess-distribution", "opener-benchmark", "score-model", "entropy-vs-commonness"),
    )
    plot.add_argument("--inputs", type=Path, nargs="+", required=True, help="artifacts to plot")
    plot.add_argument("--output", type=Path, required=True, help="PNG to write")

    manifest = command("build-manifest", _build_manifest, "Write manifest.json for artifacts")
    manifest.add_argument("--artifacts", type=Path, nargs="+", required=True, help="artifacts")
    manifest.add_argument("--provenance", type=Path, nargs="+", required=True, help="raw records")
    manifest.add_argument("--config", required=True, help="effective config as JSON")
    manifest.add_argument("--output", type=Path, required=True, help="manifest.json to write")

    verify = command("verify", _verify, "Check artifacts against their manifest")
    verify.add_argument("manifest", type=Path, help="manifest.json")
    verify.add_argument(
        "--directory", type=Path, default=None, help="folder of artifacts (default: beside it)"
    )
    verify.add_argument(
        "--remove-damaged",
        action="store_true",
        help="delete altered files (and the manifest) so the next run rebuilds them",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        args.run(args)
    except PipelineError as error:
        log.error("%s", error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
