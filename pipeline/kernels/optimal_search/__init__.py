"""The proven-optimal decision-tree search (numba), after Alex Selby's wordle.cpp.

`solve` is its public face (solve_opener, solve_openers, OptimalResult, the tree layout);
`recursion` the depth-limited min-total search with beta cut-offs; `scan` a node's one
look at its guesses (bounds, shortcuts, order); `tuning` its constants and every bound
and pruning it applies, each of which can be switched off; `context` the buffers and
settings of one solve; `partition` reply histograms and partitions of an answer set;
`memo` solved answer sets, keyed exactly; `infer` bounds implied by a cut-off;
`hard_state` the NYT hard-mode constraint states and the guesses they allow.
"""

from pipeline.kernels.optimal_search.solve import (
    MAX_SEARCH_LENGTH,
    TREE_FIELDS,
    OptimalResult,
    WordLists,
    prepare_lists,
    root_bound,
    solve_opener,
    solve_openers,
)

__all__ = [
    "MAX_SEARCH_LENGTH",
    "TREE_FIELDS",
    "OptimalResult",
    "WordLists",
    "prepare_lists",
    "root_bound",
    "solve_opener",
    "solve_openers",
]
