"""pipeline.analysis.benchmark.strategies and games: every strategy against a pure-Python player.

The decision tree plays every answer at once; tests/support/naive.py's NaivePlayer plays one game
at a time from each strategy's definition. Both must make the very same guesses.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipeline.analysis.benchmark import strategies as strategies_module
from pipeline.analysis.benchmark.game_state import GameData, Node
from pipeline.analysis.benchmark.games import play_strategies, play_tree
from pipeline.analysis.benchmark.node_choices import (
    best_by_partition,
    greedy_entropy_guess,
    two_step_sums,
)
from pipeline.analysis.benchmark.strategies import (
    CommonnessStrategy,
    TwoStepStrategy,
    make_strategy,
    opener_ranking,
)
from pipeline.analysis.benchmark.units import play_units, starts_first
from pipeline.core.errors import PipelineError
from pipeline.kernels import threads as threads_module
from tests.support.artifact_set import synthetic_words
from tests.support.fixtures import distinct_random_words
from tests.support.naive import NaivePlayer, consistent, feedback, guess_entropy, hard_legal

WORDS, ANSWERS, P_COMMON = synthetic_words()
STRATEGIES = [
    "greedy_entropy",
    "most_parts",
    "minimax",
    "letter_frequency",
    "greedy_entropy_hard",
    "greedy_entropy_ultrahard",
    "two_step",
    "commonness",
]


@pytest.fixture(scope="module")
def data() -> GameData:
    return GameData.from_words(WORDS, ANSWERS, np.array(P_COMMON))


@pytest.fixture(scope="module")
def player() -> NaivePlayer:
    return NaivePlayer(WORDS, ANSWERS, P_COMMON)


@pytest.fixture(scope="module")
def ranking(player) -> list[str]:
    return player.two_step_ranking(pool=100)


def by_answer(games) -> dict[str, dict]:
    return {
        ANSWERS[g.answer]: {
            "guesses": [WORDS[i] for i in g.guesses],
            "patterns": list(g.patterns),
            "candidates": list(g.candidates),
            "finished": g.finished,
        }
        for g in games
    }


def test_the_data_is_what_the_rules_say(data):
    assert data.words == tuple(WORDS)
    assert [WORDS[r] for r in data.answer_rows] == ANSWERS
    for g in range(0, len(WORDS), 7):
        assert data.matrix[g].tolist() == [feedback(WORDS[g], a) for a in ANSWERS]
    assert data.green == 242
    with pytest.raises(PipelineError, match="pattern matrix is 90 x 35 but the word index"):
        GameData(data.words, data.answer_rows, data.matrix[:, 1:], data.p_common)
    with pytest.raises(PipelineError, match="'zzzzz' is not an allowed word"):
        data.word_id("zzzzz")


@pytest.mark.parametrize("name", STRATEGIES)
def test_strategies_match_a_naive_player(data, player, ranking, name):
    chooser = player.choosers(ranking)[name]
    [(label, opener, games)] = play_strategies(data, [{"name": name}], max_turns=12)
    assert label == name
    got = by_answer(games)
    assert sorted(got) == ANSWERS
    for answer in ANSWERS:
        assert got[answer] == player.play(answer, chooser, 12), (name, answer)
    assert opener == got[ANSWERS[0]]["guesses"][0]


def test_letter_frequency_over_every_allowed_word(data, player):
    [(_, _, games)] = play_strategies(data, [{"name": "letter_frequency", "pool": "allowed"}], 12)
    choose = lambda t, r, h: player.letter_frequency(r, pool="allowed")  # noqa: E731
    assert by_answer(games) == {a: player.play(a, choose) for a in ANSWERS}
    with pytest.raises(PipelineError, match="pool must be candidates or allowed"):
        play_strategies(data, [{"name": "letter_frequency", "pool": "everything"}], 12)


def test_commonness_parameters_reach_the_model(data, player):
    """E(g) = p(g) + (1 - p(g)) (1 + f(max(H0 - H(g), 0))) with
    f(h) = 2 - 2**-h + guesses_ref h / bits_ref, for the configured references."""
    weights = np.array(P_COMMON)
    probs = weights / weights.sum()
    h0 = float(-(probs * np.log2(probs)).sum())
    everyone = np.arange(len(WORDS))
    weight = dict(zip(WORDS, P_COMMON, strict=True))
    expected = {}
    for bits_ref, guesses_ref in ((11.5, 1.5), (4.0, 3.0)):
        strategy = CommonnessStrategy(data, None, bits_ref, guesses_ref)
        scores = strategy.expected_scores(everyone, everyone, probs, h0)
        for g, word in enumerate(WORDS):
            left = max(h0 - guess_entropy(word, WORDS, weight), 0.0)
            f = 2 - 2**-left + guesses_ref * left / bits_ref
            assert scores[g] == pytest.approx(probs[g] + (1 - probs[g]) * (1 + f), abs=1e-12)
        expected[bits_ref] = scores
    assert not np.allclose(expected[11.5], expected[4.0])
    config = {"name": "commonness", "bits_ref": 4.0, "guesses_ref": 3.0}
    [(_, _, games)] = play_strategies(data, [config], 12)
    cache: dict = {}

    def choose(turn, remaining, history):
        key = tuple(history)
        if key not in cache:
            cache[key] = player.commonness(consistent(WORDS, history), 4.0, 3.0)
        return cache[key]

    assert by_answer(games) == {a: player.play(a, choose) for a in ANSWERS}


def test_two_step_ranking_and_scores_match_the_definition(data, player, ranking):
    assert [WORDS[i] for i in opener_ranking(data, 100)] == ranking
    # a smaller pool: the 7 best openers by entropy, ranked by two-step total
    assert [WORDS[i] for i in opener_ranking(data, 7)] == player.two_step_ranking(pool=7)
    assert player.two_step_ranking(pool=7) != ranking[:7]  # the pool matters here
    cols = np.arange(len(ANSWERS))
    totals = two_step_sums(data, [WORDS.index(w) for w in ranking[:5]], cols)
    n = len(ANSWERS)
    for word, total in zip(ranking[:5], totals, strict=True):
        exact = math.log2(n) - total / (n * data.table.scale)
        assert exact == pytest.approx(player.two_step_total(word, ANSWERS), abs=1e-9)


def test_configured_opener_is_played_first(data, player):
    [(_, opener, games)] = play_strategies(data, [{"name": "minimax", "opener": WORDS[3]}], 12)
    assert opener == WORDS[3]
    assert {g.guesses[0] for g in games} == {3}
    chooser = player.choosers([])["minimax"]
    first = lambda t, r, h: WORDS[3] if t == 1 else chooser(t, r, h)  # noqa: E731
    assert by_answer(games) == {a: player.play(a, first, 12) for a in ANSWERS}


def test_turn_cap_records_failures_and_never_loops(data):
    [(_, _, games)] = play_strategies(data, [{"name": "greedy_entropy"}], max_turns=1)
    opener = games[0].guesses[0]
    assert all(len(g.guesses) == 1 and g.guesses[0] == opener for g in games)
    finished = [g for g in games if g.finished]
    assert [data.answer_rows[g.answer] for g in finished] == (
        [opener] if opener in data.answer_rows else []
    )
    assert sum(not g.finished for g in games) == len(ANSWERS) - len(finished)
    with pytest.raises(PipelineError, match="max_turns"):
        play_strategies(data, [{"name": "greedy_entropy"}], max_turns=0)


def test_bad_strategy_configs_fail_clearly(data):
    with pytest.raises(PipelineError, match="'oracle' cannot be built"):
        play_strategies(data, [{"name": "oracle"}], max_turns=12)
    # a misspelt parameter is never silently ignored
    with pytest.raises(PipelineError, match=r"'greedy_entropy' has unknown parameters \['openr'\]"):
        play_strategies(data, [{"name": "greedy_entropy", "openr": "x"}], max_turns=12)
    with pytest.raises(PipelineError, match=r"'two_step' has unknown parameters \['top'\]"):
        play_strategies(data, [{"name": "two_step", "top": 3}], max_turns=12)
    with pytest.raises(PipelineError, match=r"'opener_benchmark' .* \['top_n'\]"):
        play_strategies(data, [{"name": "opener_benchmark", "top_n": 3}], max_turns=12)
    with pytest.raises(PipelineError, match="two_step needs top_n >= 1 and pool >= 1"):
        play_strategies(data, [{"name": "two_step", "top_n": 0}], max_turns=12)
    with pytest.raises(PipelineError, match="not an allowed word"):
        play_strategies(data, [{"name": "greedy_entropy", "opener": "zzzzz"}], max_turns=12)
    with pytest.raises(PipelineError, match="labelled"):
        play_strategies(data, [{"name": "minimax"}, {"name": "minimax"}], max_turns=12)
    labelled = [{"name": "minimax"}, {"name": "minimax", "opener": WORDS[0], "label": "mm0"}]
    assert [r[0] for r in play_strategies(data, labelled, max_turns=12)] == ["minimax", "mm0"]


def test_two_step_follows_the_stored_rankings(data, player, ranking):
    """The opener comes from the stored ranking and the second guess from the stored
    table; a reply the table lacks falls back to greedy entropy. The tables here
    deliberately differ from the computed ones."""
    opener = WORDS.index(ranking[2])
    row = data.matrix[opener]
    patterns, sizes = np.unique(row, return_counts=True)
    big = int(patterns[np.argmax(sizes)])
    stored = {
        int(p): WORDS.index(player.greedy([a for a, q in zip(ANSWERS, row, strict=True) if q == p]))
        for p in patterns
    }
    stored[big] = 0  # not what greedy would pick
    missing = int(patterns[np.argmin(sizes)])
    del stored[missing]
    asked = []
    tables = GameData(
        data.words,
        data.answer_rows,
        data.matrix,
        data.p_common,
        opener_ranking=[opener, 7],
        second_guesses=lambda o: asked.append(o) or (stored if o == opener else {}),
    )
    [(_, first, games)] = play_strategies(tables, [{"name": "two_step"}], max_turns=12)
    assert first == WORDS[opener] and asked == [opener]
    in_big = [g for g in games if g.patterns[0] == big]
    assert len(in_big) == sizes.max() > 1
    assert {g.guesses[1] for g in in_big} == {0}
    chooser = player.choosers([WORDS[opener]])["two_step"]
    for game in games:
        if game.patterns[0] != big:
            assert by_answer([game])[ANSWERS[game.answer]] == player.play(
                ANSWERS[game.answer], chooser
            )
    bench = play_strategies(tables, [{"name": "opener_benchmark", "top": 2}], max_turns=12)
    assert [opener_word for _, opener_word, _ in bench] == [WORDS[opener], WORDS[7]]


def test_the_opener_benchmark_plays_greedy_after_each_top_opener(data, player, ranking):
    results = play_strategies(data, [{"name": "opener_benchmark", "top": 3}], max_turns=12)
    assert [(label, opener) for label, opener, _ in results] == [
        ("opener_benchmark", word) for word in ranking[:3]
    ]
    greedy = player.choosers(ranking)["greedy_entropy"]
    for _, opener, games in results:
        play = lambda t, r, h, o=opener: o if t == 1 else greedy(t, r, h)  # noqa: E731
        assert by_answer(games) == {a: player.play(a, play) for a in ANSWERS}


def test_threads_give_the_same_games(monkeypatch):
    """The kernels split rows over threads (forced here on tiny work) and score each row
    on its own: the same games for 1 and 2 threads."""
    strategies = [{"name": name} for name in STRATEGIES]
    single = play_strategies(
        GameData.from_words(WORDS, ANSWERS, np.array(P_COMMON)), strategies, 12
    )
    count = threads_module.thread_count
    splits = []

    def forced(threads, n_items, work, min_work):
        splits.append(threads)
        return count(threads, n_items, work, 1)

    monkeypatch.setattr(threads_module, "thread_count", forced)
    fresh = GameData.from_words(WORDS, ANSWERS, np.array(P_COMMON))
    fresh.threads = 2
    assert play_strategies(fresh, strategies, 12) == single
    assert 2 in splits


def test_a_tree_is_played_once_per_node(data, monkeypatch):
    """Each node's guess is chosen once, however many answers pass through it."""
    calls = []
    original = TwoStepStrategy.choose
    monkeypatch.setattr(
        TwoStepStrategy,
        "choose",
        lambda self, node: calls.append(node.answers.size) or original(self, node),
    )
    strategy = TwoStepStrategy(data, None)
    games = play_tree(strategy, data, 12)
    assert len(games) == len(ANSWERS)
    # one node per distinct reply history after which the game went on
    nodes = {tuple(g.patterns[:t]) for g in games for t in range(1, len(g.guesses))}
    assert len(calls) == len(nodes) < sum(len(g.guesses) - 1 for g in games)


@pytest.mark.parametrize("seed", [0, 1])
def test_greedy_entropy_guess_is_best_by_partition(data, seed):
    """greedy_entropy's guess, found by the pruned second-guess search, is the guess of the
    plain scoring of every word (best_by_partition), on answer sets of every size: the
    module's words and crowded random words, where ties and perfect splits abound."""
    rng = np.random.default_rng(seed)
    words = distinct_random_words(rng, 380, alphabet="abcde")
    crowded = GameData.from_words(words, sorted(rng.choice(words, 150, replace=False)))
    outside = 0
    for game_data in (data, crowded):
        n_answers = len(game_data.answer_rows)
        every_word = np.arange(len(game_data.words), dtype=np.int64)
        for size in [*range(1, 12), 20, 35, 60, n_answers]:
            for _ in range(6):
                answers = np.sort(rng.choice(n_answers, min(size, n_answers), replace=False))
                expected = best_by_partition(game_data, every_word, answers, "entropy")
                assert greedy_entropy_guess(game_data, answers) == expected, (size, answers)
                outside += expected not in game_data.answer_rows[answers]
    assert outside > 10  # winners outside the answer set were checked too


def test_greedy_choices_are_memoised_across_trees(monkeypatch):
    """The opener benchmark's trees share greedy_entropy's choices: each distinct answer
    set is searched once, however many openers' trees reach it."""
    searched = []
    original = strategies_module.greedy_entropy_guess

    def counted(data, answers):
        searched.append(answers.tobytes())
        return original(data, answers)

    monkeypatch.setattr(strategies_module, "greedy_entropy_guess", counted)
    fresh = GameData.from_words(WORDS, ANSWERS, np.array(P_COMMON))
    results = play_strategies(fresh, [{"name": "opener_benchmark", "top": 6}], max_turns=12)
    assert len(results) == 6
    assert len(searched) == len(set(searched)) > 0


def test_hard_mode_keeps_exactly_the_words_the_rule_allows(data):
    """greedy_entropy_hard's state after each reply is the set of words legal under NYT
    hard mode, as the rule spelled out letter by letter says, along every game."""
    _, strategy = make_strategy(data, {"name": "greedy_entropy_hard"})
    games = play_tree(strategy, data, 12)
    for game in games[::3]:
        node = Node(1, np.arange(len(ANSWERS)), state=strategy.initial_state())
        history = []
        for guess, pattern in zip(game.guesses, game.patterns, strict=True):
            assert hard_legal(WORDS[guess], history)
            history.append((WORDS[guess], pattern))
            node.state = strategy.child_state(node, guess, pattern)
            expected = [i for i, w in enumerate(WORDS) if hard_legal(w, history)]
            assert node.state.tolist() == expected


@pytest.mark.parametrize(
    ("top", "per_job", "units"), [(50, 13, 4), (50, 8, 7), (7, 10, 1), (5, 1, 5)]
)
def test_the_opener_benchmark_is_dealt_out_by_rank(top, per_job, units):
    """Unit k of n plays ranks k, k + n, ...: every rank once, at most per_job per unit,
    and the units' sizes differ by one at most (neighbouring ranks cost alike, so the
    units do too)."""
    strategies = [{"name": "greedy_entropy"}, {"name": "opener_benchmark", "top": top}]
    found = play_units(strategies, per_job)
    assert list(found)[0] == "greedy_entropy" and found["greedy_entropy"]["opener_slice"] is None
    dealt = [range(*unit["opener_slice"]) for unit in list(found.values())[1:]]
    assert list(found)[1:] == [f"opener_benchmark-{k:03d}" for k in range(units)]
    assert sorted(rank for ranks in dealt for rank in ranks) == list(range(top))
    assert max(map(len, dealt)) <= per_job and max(map(len, dealt)) - min(map(len, dealt)) <= 1
    assert list(dealt[0]) == list(range(0, top, units))


def test_the_units_on_the_chain_and_the_long_one_start_first():
    """The opener benchmark's and two_step's units wait for the ranking and end the run;
    commonness is the long unit that does not; the rest fill the cores left over."""
    strategies = [
        {"name": name}
        for name in ("greedy_entropy", "commonness", "two_step", "minimax", "opener_benchmark")
    ]
    units = play_units(strategies, 20)
    first = {name for name, unit in units.items() if starts_first(unit["strategy"])}
    assert first == {"commonness", "two_step", *(f"opener_benchmark-{k:03d}" for k in range(3))}
