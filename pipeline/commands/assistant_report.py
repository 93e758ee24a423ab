"""What the assistant answers, as data (`Report`), then as text or as one JSON document:
the same content either way."""

from __future__ import annotations

import textwrap
from dataclasses import asdict, dataclass

import numpy as np

from pipeline.commands.assistant_data import OPTIMAL_TREES_FILE
from pipeline.commands.assistant_game import MAX_GUESSES, SOURCES, Advisor, State, Table, Turn

SCORE_RULE = (
    "E = expected guesses to finish, this guess included: P(answer) * 1 + sum over the "
    "other replies b of P(b) * (1 + F(bits left in b)), F the score model's curve; read "
    "off a stored optimal tree where the game is on one"
)


@dataclass(frozen=True)
class Row:
    """One scored guess."""

    guess: str
    bits: float
    expected_guesses: float
    p_win: float
    can_be_answer: bool
    source: str  # optimal, benchmark or model


@dataclass(frozen=True)
class Rating:
    """One guess the player made, beside the best available at that turn."""

    number: int
    guess: str
    colours: str
    candidates_before: int
    candidates_after: int
    played: Row
    best: Row


@dataclass(frozen=True)
class Report:
    version: str
    data: str  # the artifacts folder
    edition: str  # the word-list edition's name ("" when unnamed)
    edition_title: str
    mode: str  # answers or prior
    hard: bool
    curve: str  # the score model strategy F comes from
    optimal_trees: bool  # optimal trees are stored for this mode, and their file is there
    turns: list[Rating]
    solved: bool
    game_over: bool
    pool: int  # candidates before any guess
    count: int  # candidates now
    bits: float
    weighted_bits: float | None
    remaining: list[tuple[str, float]]  # (word, probability), most likely first
    suggestions: list[Row]
    notes: list[str]
    missing_files: list[str]  # optional artifacts looked for and not found


def _row(advisor: Advisor, table: Table, position: int) -> Row:
    scores = table.scores
    return Row(
        advisor.data.index.words[table.guesses[position]],
        float(scores.bits[position]),
        float(scores.expected[position]),
        float(scores.p_win[position]),
        bool(table.is_candidate[position]),
        SOURCES[table.source[position]],
    )


def rating(advisor: Advisor, before: State, after: State, turn: Turn) -> Rating:
    table = advisor.table(before)
    return Rating(
        len(before.turns) + 1,
        turn.word,
        turn.colours,
        before.candidates.size,
        after.candidates.size,
        _row(advisor, table, table.position(turn.word_id)),
        _row(advisor, table, int(table.order[0])),
    )


def suggestions(advisor: Advisor, state: State) -> list[Row]:
    """The best guesses at `state`; only the answer once a single candidate is left."""
    table = advisor.table(state)
    top = 1 if state.candidates.size == 1 else advisor.top
    return [_row(advisor, table, int(p)) for p in table.order[:top]]


def build(
    advisor: Advisor, turns: list[Turn], version: str = "", ratings: list[Rating] | None = None
) -> Report:
    """The report after `turns`; `ratings` of earlier turns may be passed in (play)."""
    states = advisor.states(turns)
    ratings = list(ratings or [])
    for k in range(len(ratings), len(turns)):
        ratings.append(rating(advisor, states[k], states[k + 1], turns[k]))
    final = states[-1]
    solved = bool(turns) and turns[-1].pattern_id == advisor.green
    over = solved or len(turns) >= MAX_GUESSES
    words = advisor.data.index.words
    order = np.lexsort((np.arange(final.candidates.size), -final.weights)).tolist()
    data = advisor.data
    stored = data.optimal_openers(advisor.hard) is not None
    trees = stored and data.path(OPTIMAL_TREES_FILE, required=False) is not None
    notes = []
    if not advisor.prior and not stored:
        notes.append(
            "no optimal trees are stored (optimal_openers.parquet): every E is a benchmark "
            "measurement or a score-model estimate"
        )
    elif not advisor.prior and not trees:
        notes.append(
            f"{OPTIMAL_TREES_FILE} is missing: no stored optimal tree is followed, so after "
            "the opener every E and the order are benchmark measurements or score-model "
            "estimates"
        )
    return Report(
        version=version,
        data=str(advisor.data.folder),
        edition=advisor.data.edition.name if advisor.data.edition else "",
        edition_title=advisor.data.edition.title if advisor.data.edition else "",
        mode="prior" if advisor.prior else "answers",
        hard=advisor.hard,
        curve=advisor.curve.strategy,
        optimal_trees=trees,
        turns=ratings,
        solved=solved,
        game_over=over,
        pool=advisor.pool.size,
        count=final.candidates.size,
        bits=final.bits + 0.0,
        weighted_bits=final.weighted_bits if advisor.prior else None,
        remaining=[(words[final.candidates[i]], float(final.weights[i])) for i in order],
        suggestions=[] if over else suggestions(advisor, final),
        notes=notes,
        missing_files=list(data.missing),
    )


# --- JSON ---------------------------------------------------------------------------------


def as_json(report: Report, list_limit: int) -> dict:
    """The report as one JSON-ready document (the candidates listed up to list_limit)."""
    document = asdict(report)
    listed = report.remaining if report.count <= list_limit else None
    document["remaining"] = (
        None if listed is None else [{"word": w, "probability": p} for w, p in listed]
    )
    document["score_rule"] = SCORE_RULE
    for number, row in enumerate(document["suggestions"], 1):
        row["rank"] = number
    return document


# --- text ---------------------------------------------------------------------------------


def edition_line(report: Report) -> str:
    title = f": {report.edition_title}" if report.edition_title else ""
    return f"edition: {report.edition}{title}"


def header(report: Report) -> str:
    pool = (
        f"every allowed word ({report.pool}), weighted by p_common"
        if report.mode == "prior"
        else f"the answer list ({report.pool} words, equally likely)"
    )
    rules = "hard mode (NYT)" if report.hard else "normal mode"
    return f"candidates: {pool}; {rules}"


def rating_lines(ratings: list[Rating]) -> list[str]:
    if not ratings:
        return []
    lines = [
        "your guesses beside the best at each turn (E: expected guesses to finish):",
        "  #  guess  reply     bits       E  left  |  best      bits       E",
    ]
    for r in ratings:
        lines.append(
            f"{r.number:>3}  {r.guess}  {r.colours}  {r.played.bits:7.4f}  "
            f"{r.played.expected_guesses:6.4f}  {r.candidates_after:>4}  |  {r.best.guess}  "
            f"{r.best.bits:7.4f}  {r.best.expected_guesses:6.4f}"
        )
    return lines


def state_lines(report: Report, list_limit: int, width: int) -> list[str]:
    pool = "answers" if report.mode == "answers" else "allowed words"
    lines = []
    if report.solved:
        lines.append(f"solved in {len(report.turns)} guesses")
        return lines
    verb = "remains" if report.count == 1 else "remain"
    summary = f"{report.count} of {report.pool} {pool} {verb}: {report.bits:.2f} bits"
    if not report.turns:
        summary = f"{report.count} {pool}: {report.bits:.2f} bits"
    if report.weighted_bits is not None:
        summary += f" ({report.weighted_bits:.2f} bits weighted by p_common)"
    lines.append(summary)
    if report.game_over:
        lines.append(f"not solved in {MAX_GUESSES} guesses")
    if report.count == 1:
        lines.append(f"the answer is {report.remaining[0][0]}")
    elif report.count <= list_limit and report.turns:
        if report.mode == "prior":
            words = [f"{w} {100 * p:.1f}%" for w, p in report.remaining]
        else:
            words = [w for w, _ in report.remaining]
        lines += textwrap.wrap(
            "remaining: " + ", ".join(words), width=max(width, 20), subsequent_indent="  "
        )
    return lines


def suggestion_lines(report: Report) -> list[str]:
    if not report.suggestions:
        return []
    what = "best next guesses" if report.turns else "best openers"
    width = len(report.suggestions[0].guess)
    lines = [
        f"{what}, by E (expected guesses to finish, this one included):",
        f"rank  {'guess':<{width}}     bits       E  win now  answer?  E from",
    ]
    for rank, row in enumerate(report.suggestions, 1):
        lines.append(
            f"{rank:>4}  {row.guess}  {row.bits:7.4f}  {row.expected_guesses:6.4f}  "
            f"{100 * row.p_win:6.1f}%  {'yes' if row.can_be_answer else 'no ':<7}  {row.source}"
        )
    return lines


def legend(report: Report) -> str:
    return (
        f"E from: optimal = a stored optimal tree, benchmark = the solver benchmark's measured "
        f"mean, model = one step ahead with the score model's {report.curve} curve"
    )


def render(report: Report, list_limit: int, width: int) -> str:
    """The report as plain text, lists wrapped to `width` columns."""
    lines = [edition_line(report), header(report)] if report.edition else [header(report)]
    lines += rating_lines(report.turns)
    lines += state_lines(report, list_limit, width)
    lines += suggestion_lines(report)
    if report.suggestions or report.turns:
        lines += textwrap.wrap(legend(report), width=max(width, 20))
    for note in report.notes:
        lines += textwrap.wrap("note: " + note, width=max(width, 20))
    return "\n".join(lines)
