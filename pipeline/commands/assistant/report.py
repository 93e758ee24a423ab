"""What the assistant answers, as data (`Report`), then as text or as one JSON document:
the same content either way."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from pipeline.analysis.advice.fallback import FALLBACK_ALLOWED
from pipeline.analysis.history.archive import Coverage
from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.data import OPTIMAL_TREES_FILE
from pipeline.commands.assistant.game import State, Turn
from pipeline.commands.assistant.values import UNVALUED, Choice
from pipeline.core.wordle import MAX_GUESSES

SCORE_RULE = (
    "E = mean guesses to finish, this guess included, for a player who plays it and then "
    "follows the advice at every later turn; proven: the optimum after this guess (a "
    "stored optimal tree, the certified top openers, or a search made on the spot); "
    "policy: the exact mean of the assistant's own play (every state of at most 60 "
    "candidates solved in full, the best of the search's first 10 guesses above); "
    "wins_all_within_6 false: some reply leaves candidates with no sure win in the "
    'guesses left (at_risk: their share); valued false (evidence "not valued in time"): '
    "the search did not finish within the budget, so no E. Prior mode shows no E: an "
    "estimate orders it"
)


@dataclass(frozen=True)
class Row:
    """One guess at a state."""

    guess: str
    expected_guesses: float | None  # None when at risk, or in prior mode
    evidence: str  # proven, policy, estimate, or "not valued in time" (no E)
    lower_bound: float | None  # a proven lower bound of E after this guess
    wins_all_within_6: bool | None
    at_risk: float | None  # share of the candidates left without a sure win
    bits: float
    p_win: float
    can_be_answer: bool
    certified: bool  # one of the certified top openers
    valued: bool  # False: the search did not value it within the budget


@dataclass(frozen=True)
class Rating:
    """One guess the player made, beside the best at that turn, as a coach rates it.

    skill: E given up against the best guess shown (0 when it was as good; negative when
    it beat every guess the assistant valued). luck: the guesses
    the reply saved against what the guess was expected to leave (negative: unlucky);
    with both, guesses used = E of the best opener + skill given up - luck.
    """

    number: int
    guess: str
    colours: str
    candidates_before: int
    candidates_after: int
    expected_after: float | None  # candidates the guess was expected to leave
    played: Row
    best: Row
    skill: float | None
    luck: float | None


@dataclass(frozen=True)
class Summary:
    """A finished game: guesses used against what the best play expected at the start."""

    guesses: int
    solved: bool
    expected_at_start: float | None
    skill: float | None  # summed over the turns
    luck: float | None


@dataclass(frozen=True)
class PlayedCoverage:
    """Of the answers played to `until` (history.parquet), how many the edition's answer
    list holds."""

    covered: int
    played: int
    until: str

    @property
    def missed(self) -> int:
        """Played days whose answer the list lacks (not in --json: covered and played
        already say it)."""
        return self.played - self.covered


@dataclass(frozen=True)
class Report:
    version: str
    data: str  # the artifacts folder
    edition: str  # the word-list edition's name ("" when unnamed)
    edition_title: str
    played_answers: PlayedCoverage | None  # None without history.parquet
    mode: str  # answers or prior
    hard: bool
    optimal_trees: bool  # optimal trees are stored for this mode, and their file is there
    turns: list[Rating]
    solved: bool
    game_over: bool
    summary: Summary | None  # once the game is over
    pool: int  # candidates before any guess
    fallback: str | None  # "allowed": the replies ruled out every answer of the list, and
    # the game plays on over the allowed words weighted by p_common (no E); else None
    count: int  # candidates now
    bits: float
    weighted_bits: float | None
    remaining: list[tuple[str, float]]  # (word, probability), most likely first
    suggestions: list[Row]
    notes: list[str]
    missing_files: list[str]  # optional artifacts looked for and not found


def _row(advisor: Advisor, choice: Choice) -> Row:
    return Row(
        guess=advisor.data.index.words[choice.word_id],
        expected_guesses=choice.expected,
        evidence=choice.evidence,
        lower_bound=choice.lower_bound,
        wins_all_within_6=choice.wins_all,
        at_risk=choice.at_risk,
        bits=choice.bits,
        p_win=choice.p_win,
        can_be_answer=choice.is_candidate,
        certified=choice.certified,
        valued=choice.valued,
    )


def rating(advisor: Advisor, before: State, after: State, turn: Turn) -> Rating:
    played = advisor.choice(before, turn.word_id)
    best = advisor.table(before).best()
    skill = luck = None
    if played.expected is not None and best.expected is not None:
        skill = played.expected - best.expected + 0.0
    left = advisor.value_after(after)
    if played.expected is not None and left is not None:
        luck = (played.expected - 1.0) - left + 0.0
    return Rating(
        len(before.turns) + 1, turn.word, turn.colours, before.candidates.size,
        after.candidates.size, played.expected_left, _row(advisor, played),
        _row(advisor, best), skill, luck,
    )  # fmt: skip


def suggestions(advisor: Advisor, state: State) -> list[Row]:
    """The best guesses at `state`; only the answer once a single candidate is left."""
    table = advisor.table(state)
    return [_row(advisor, table.choices[w]) for w in table.order]


def summary(advisor: Advisor, states: list[State], ratings: list[Rating], solved: bool):
    first = advisor.table(states[0]).best().expected if ratings else None
    skills = [r.skill for r in ratings]
    lucks = [r.luck for r in ratings]
    return Summary(
        guesses=len(ratings), solved=solved, expected_at_start=first,
        skill=None if None in skills else sum(skills) + 0.0,
        luck=None if None in lucks else sum(lucks) + 0.0,
    )  # fmt: skip


def _fallback_note(advisor: Advisor) -> str:
    index = advisor.data.index
    edition = (advisor.data.edition.name if advisor.data.edition else "") or "this edition"
    return (
        f"no word of {edition}'s answer list fits these replies: playing on over all "
        f"{len(index.words):,} allowed words, weighted by commonness; no exact E exists "
        "there, so none is shown and the score model's estimate orders the guesses"
    )


def _notes(advisor: Advisor, stored: bool, trees: bool, final: State) -> list[str]:
    notes = [_fallback_note(advisor)] if final.fallback else []
    if advisor.prior:
        notes.append(
            "prior mode: no exact E exists when the answer may be any allowed word, so "
            "none is shown; the score model's estimate orders the guesses"
        )
    elif not stored:
        notes.append(
            "no optimal openers are stored (optimal_openers.parquet): every E comes from "
            "the assistant's own search"
        )
    elif not trees:
        notes.append(
            f"{OPTIMAL_TREES_FILE} is missing: no stored optimal tree is followed after "
            "the opener; every E there comes from the assistant's own search"
        )
    if not advisor.prior and not final.turns and stored:
        rows = advisor.data.optimal_openers(advisor.hard) or {}
        ranked = sum(1 for r in rows.values() if r.top_rank is not None)
        if ranked:
            notes.append(
                f"the openers are the optimal stage's certified top {ranked}: no other "
                "opener has a lower proven E"
            )
        else:
            notes.append(
                "the openers are those the optimal stage proved; this edition's top list "
                "is not certified (optimal.certify is off), so a better opener may exist"
            )
    if advisor.valuer.expired:
        notes.append(
            f"the search did not finish within its budget ({advisor.valuer.budget:g} s of "
            f'CPU, --budget): a guess marked "{UNVALUED}" shows no E, and a rating '
            "without one shows none; what is shown is exact"
        )
    return notes


def build(
    advisor: Advisor, turns: list[Turn], version: str = "", ratings: list[Rating] | None = None
) -> Report:
    """The report after `turns`; `ratings` of earlier turns may be passed in (play)."""
    states = advisor.states(turns)
    advisor.valuer.start()
    final = states[-1]
    solved = bool(turns) and turns[-1].pattern_id == advisor.green
    over = solved or len(turns) >= MAX_GUESSES
    shown = [] if over else suggestions(advisor, final)  # first: what the player needs now
    ratings = list(ratings or [])
    for k in range(len(ratings), len(turns)):
        ratings.append(rating(advisor, states[k], states[k + 1], turns[k]))
    words = advisor.data.index.words
    order = np.lexsort((np.arange(final.candidates.size), -final.weights)).tolist()
    data = advisor.data
    stored = data.optimal_openers(advisor.hard) is not None
    trees = stored and data.path(OPTIMAL_TREES_FILE, required=False) is not None
    return Report(
        version=version,
        data=str(advisor.data.folder),
        edition=advisor.data.edition.name if advisor.data.edition else "",
        edition_title=advisor.data.edition.title if advisor.data.edition else "",
        played_answers=_played(advisor.data.played_coverage()),
        mode="prior" if advisor.prior else "answers",
        hard=advisor.hard,
        optimal_trees=trees,
        turns=ratings,
        solved=solved,
        game_over=over,
        summary=summary(advisor, states, ratings, solved) if over else None,
        pool=advisor.pool.size,
        fallback=FALLBACK_ALLOWED if final.fallback else None,
        count=final.candidates.size,
        bits=final.bits + 0.0,
        weighted_bits=final.weighted_bits if advisor.prior or final.fallback else None,
        remaining=[(words[final.candidates[i]], float(final.weights[i])) for i in order],
        suggestions=shown,
        notes=_notes(advisor, stored, trees, final),
        missing_files=list(data.missing),
    )


def _played(coverage: Coverage | None) -> PlayedCoverage | None:
    if coverage is None:
        return None
    return PlayedCoverage(coverage.covered, coverage.days, coverage.last.isoformat())


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
