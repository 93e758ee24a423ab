"""The assistant's report as plain text: the same content as its JSON document, in
tables and lines wrapped to the terminal (`render`), and the pieces `play` reuses."""

from __future__ import annotations

import textwrap

from pipeline.commands.assistant.report import Rating, Report, Row
from pipeline.commands.assistant.values import ESTIMATE, PROVEN
from pipeline.core.wordle import MAX_GUESSES


def edition_line(report: Report) -> str:
    title = f": {report.edition_title}" if report.edition_title else ""
    played = report.played_answers
    covers = f"; covers {played.covered:,} of {played.played:,} played answers" if played else ""
    return f"edition: {report.edition}{title}{covers}"


def header(report: Report) -> str:
    pool = (
        f"every allowed word ({report.pool}), weighted by p_common"
        if report.mode == "prior"
        else f"the answer list ({report.pool} words, equally likely)"
    )
    rules = "hard mode (NYT)" if report.hard else "normal mode"
    return f"candidates: {pool}; {rules}"


def format_e(value: float | None, at_risk: float | None = None) -> str:
    """E to four places; "risk 3%" for a guess that cannot win every candidate in time."""
    if value is None:
        return "-" if at_risk is None else f"risk {100 * at_risk:.0f}%"
    return f"{value:.4f}"


def _rated(row: Row) -> str:
    return format_e(row.expected_guesses, row.at_risk) if row.valued else "unvalued"


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def rating_lines(ratings: list[Rating]) -> list[str]:
    """Each guess beside the best at its turn: E given up (skill) and the reply's luck."""
    if not ratings:
        return []
    if ratings[0].played.evidence == ESTIMATE:  # prior mode: information, no E
        lines = ["your guesses beside the best at each turn (bits of information):"]
        lines.append("  #  guess  reply     bits  best       bits  left")
        for r in ratings:
            lines.append(
                f"{r.number:>3}  {r.guess}  {r.colours}  {r.played.bits:7.4f}  {r.best.guess}  "
                f"{r.best.bits:7.4f}  {r.candidates_after:>4}"
            )
        return lines
    lines = [
        "your guesses, rated:",
        "  #  guess  reply         E  best          E    skill  left  expected    luck",
    ]
    for r in ratings:
        expected_left = "-" if r.expected_after is None else f"{r.expected_after:.1f}"
        lines.append(
            f"{r.number:>3}  {r.guess}  {r.colours}  {_rated(r.played):>8}  "
            f"{r.best.guess}  {_rated(r.best):>8}  {_signed(r.skill):>7}  "
            f"{r.candidates_after:>4}  {expected_left:>8}  {_signed(r.luck):>6}"
        )
    return lines


def summary_lines(report: Report) -> list[str]:
    s = report.summary
    if s is None or not s.guesses:
        return []
    result = f"solved in {s.guesses}" if s.solved else f"not solved in {s.guesses}"
    line = f"game: {result}"
    if s.expected_at_start is not None:
        line += f"; the best play expected {s.expected_at_start:.4f} at the start"
    if s.skill is not None:
        line += f"; skill gave up {s.skill:.3f}"
    if s.luck is not None:
        line += f", luck saved {s.luck:+.3f}"
    return [line]


def state_lines(report: Report, list_limit: int, width: int) -> list[str]:
    weighted = report.mode == "prior" or report.fallback is not None
    pool = "allowed words" if weighted else "answers"
    lines = []
    if report.solved:
        lines.append(f"solved in {len(report.turns)} guesses")
        return lines
    verb = "remains" if report.count == 1 else "remain"
    summary = f"{report.count} of {report.pool} {pool} {verb}: {report.bits:.2f} bits"
    if report.fallback is not None:  # none of the pool is left: the allowed words are
        summary = f"{report.count} allowed words {verb}: {report.bits:.2f} bits"
    if not report.turns:
        summary = f"{report.count} {pool}: {report.bits:.2f} bits"
    if report.weighted_bits is not None:
        summary += f" ({report.weighted_bits:.2f} bits weighted by p_common)"
    lines.append(summary)
    if report.game_over:
        lines.append(f"not solved in {MAX_GUESSES} guesses")
    if report.count == 1:
        lines.append(f"the answer is {report.remaining[0][0]}")
        lines += textwrap.wrap(off_list_caveat(report), width=max(width, 20))
    elif report.turns and report.count <= list_limit:
        if weighted:
            words = [f"{w} {100 * p:.1f}%" for w, p in report.remaining]
        else:
            words = [w for w, _ in report.remaining]
        lines += textwrap.wrap(
            "remaining: " + ", ".join(words), width=max(width, 20), subsequent_indent="  "
        )
    elif report.turns:
        lines.append(f"remaining: more than {list_limit} (--list N shows up to N)")
    return lines


def off_list_caveat(report: Report) -> str:
    """When the list leaves one word: the list has missed the day's answer before, so "the
    answer is" is no certainty; "" when it never has (or no history.parquet says), and in
    prior mode or the fallback, whose candidates are every allowed word already."""
    played = report.played_answers
    if report.mode == "prior" or report.fallback is not None or not played or not played.missed:
        return ""
    word = report.remaining[0][0]
    where = f"{report.edition}'s answer list" if report.edition else "the answer list"
    then = f"then the reply to {word} says so"
    if len(report.turns) < MAX_GUESSES - 1:  # a guess is left after this one
        then += ", and the advice plays on over every allowed word"
    return (
        f"(unless the answer is off {where}, as it was on {played.missed:,} of "
        f"{played.played:,} played days: {then})"
    )


def _safety(row: Row) -> str:
    if row.wins_all_within_6 is None:
        return "-"
    if row.wins_all_within_6:
        return "yes"
    share = "" if row.at_risk is None else f" {100 * row.at_risk:.0f}%"
    return f"risk{share}"


def suggestion_lines(report: Report) -> list[str]:
    if not report.suggestions:
        return []
    what = "best next guesses" if report.turns else "best openers"
    width = len(report.suggestions[0].guess)
    if report.mode == "prior" or report.fallback is not None:
        where = "prior mode" if report.mode == "prior" else "the fallback"
        lines = [
            f"{what}, ordered by an estimate (no exact E in {where}):",
            f"rank  {'guess':<{width}}     bits  win now  answer?",
        ]
        for rank, row in enumerate(report.suggestions, 1):
            lines.append(
                f"{rank:>4}  {row.guess}  {row.bits:7.4f}  {100 * row.p_win:6.1f}%  "
                f"{'yes' if row.can_be_answer else 'no'}"
            )
        return lines
    lines = [
        f"{what} (E: mean guesses to finish, this one included, following the advice):",
        f"rank  {'guess':<{width}}       E  from     at least  wins in {MAX_GUESSES}     bits"
        "  win now  answer?",
    ]
    for rank, row in enumerate(report.suggestions, 1):
        bound = (
            "" if row.evidence == PROVEN or row.lower_bound is None else f"{row.lower_bound:.4f}"
        )
        evidence = row.evidence + ("*" if row.certified else "")
        claim = f"{evidence:<7}  {bound:>8}  {_safety(row):<9}"
        if not row.valued:  # no E, no bound, no claim of a win: the search did not finish
            claim = f"{row.evidence:<28}"
        lines.append(
            f"{rank:>4}  {row.guess}  {format_e(row.expected_guesses):>6}  {claim}  "
            f"{row.bits:7.4f}  {100 * row.p_win:6.1f}%  {'yes' if row.can_be_answer else 'no'}"
        )
    return lines


EXPLAIN_HINT = "(--explain: what the columns mean)"  # in place of the legend, read once
E_LEGEND = (
    "from: proven = the optimum after this guess; policy = the exact mean of the "
    "assistant's own play after it (states of at most 60 candidates solved in full, "
    "the best of the search's first 10 guesses above), never below the optimum; "
    "at least: a proven lower bound; wins in 6: every candidate won within six "
    "guesses, or the share at risk"
)
CERTIFIED_LEGEND = "; * certified top opener"
RATING_LEGEND = (
    "; skill: E given up against the best guess; left, expected: candidates the reply "
    "left and the number the guess was expected to leave; luck: guesses the reply saved "
    "against the expected (negative: unlucky)"
)
BITS_LEGEND = "bits: information of the guess over the weighted candidates"


def legend(report: Report | None = None) -> str:
    """What the columns of `report` mean; without a report every column of any answer
    (--help). The one home of the legend: --explain, --help and play's first turn."""
    if report is None:
        return (
            E_LEGEND + CERTIFIED_LEGEND + RATING_LEGEND
            + "; in prior mode and the fallback, " + BITS_LEGEND
        )  # fmt: skip
    rated = RATING_LEGEND if report.turns else ""
    if report.mode == "prior" or report.fallback is not None:
        return BITS_LEGEND
    certified = any(row.certified for row in report.suggestions)
    return E_LEGEND + (CERTIFIED_LEGEND if certified else "") + rated


def render(report: Report, list_limit: int, width: int, explain: bool = False) -> str:
    """The report as plain text, lists wrapped to `width` columns; the legend only with
    `explain` (a daily user has read it once), else one line that says how to get it."""
    lines = [edition_line(report), header(report)] if report.edition else [header(report)]
    lines += rating_lines(report.turns)
    lines += summary_lines(report)
    lines += state_lines(report, list_limit, width)
    lines += suggestion_lines(report)
    if report.suggestions or report.turns:
        lines += textwrap.wrap(legend(report), width=max(width, 20)) if explain else [EXPLAIN_HINT]
    for note in report.notes:
        lines += textwrap.wrap("note: " + note, width=max(width, 20))
    return "\n".join(lines)
