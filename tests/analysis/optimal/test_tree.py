"""The one in-memory type of a stored optimal tree: what its reader refuses."""

from __future__ import annotations

import pytest

from pipeline.analysis.optimal.tree import OptimalTree, TreeError

WORDS = ["w0", "w1", "w2", "w3"]


def columns(**changes) -> dict[str, list]:
    """A tree of 3 answers: w1 at the root, replies 4 and 5 lead to w2 and w3."""
    base = {
        "node_id": [0, 1, 2],
        "parent_id": [None, 0, 0],
        "pattern_id": [None, 4, 5],
        "guess_id": [1, 2, 3],
        "guess": ["w1", "w2", "w3"],
        "n_answers": [3, 1, 1],
        "depth": [1, 2, 2],
        "guesses_to_finish": [5, 1, 1],
    }
    return base | changes


def test_a_good_tree_reads_in_any_row_order() -> None:
    shuffled = {key: [value[i] for i in (2, 0, 1)] for key, value in columns().items()}
    tree = OptimalTree.from_columns("hard", "w1", shuffled, 5, WORDS)
    assert tree.guess.tolist() == [1, 2, 3]
    assert tree.children == {(0, 4): 1, (0, 5): 2}
    assert tree.path([1, 3], [5, 242]) == [0, 2]
    assert tree.expected(0) == 5 / 3


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"node_id": [0, 1, 3]}, "node ids are not 0..2"),
        ({"guess_id": [1, 2, 4]}, "guess ids disagree with the word index"),
        ({"guess": ["w1", "w3", "w3"]}, "guess ids disagree with the word index"),
        ({"guess_id": [2, 1, 3], "guess": ["w2", "w1", "w3"]}, "the root plays 'w2'"),
        ({"parent_id": [None, 0, None]}, "node 2 is misplaced"),
        ({"pattern_id": [None, 4, 4]}, "node 0 has two children for reply 4"),
    ],
)
def test_a_tree_that_is_not_one_over_the_index_is_refused(changes, problem) -> None:
    with pytest.raises(TreeError, match=problem):
        OptimalTree.from_columns("normal", "w1", columns(**changes), 5, WORDS)
