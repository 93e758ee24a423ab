"""The proven-optimal decision-tree search (numba), after Alex Selby's wordle.cpp.

Its public API is what this package exports: `solve` (solve_opener, solve_openers,
OptimalResult, the tree layout), `bounds.opener_bounds`, `state_search` (StateSearch at a
game state, under a Policy), `selby`'s guess and class bounds, and INF (no tree fits).
Inside: `recursion` the depth-limited min-total search with beta cut-offs; `scan` a node's one
look at its guesses (bounds, shortcuts, order); `classes` a guess's classes at a node;
`weights` the answers' weights; `tuning` its constants and every bound
and pruning it applies, each of which can be switched off; `context` the buffers and
settings of one solve; `partition` reply histograms and partitions of an answer set;
`memo` solved answer sets, keyed exactly; `infer` bounds implied by a cut-off;
`hard_state` the NYT hard-mode constraint states and the guesses they allow.
"""

from pipeline.kernels.optimal_search.bounds import opener_bounds
from pipeline.kernels.optimal_search.context import INF
from pipeline.kernels.optimal_search.inputs import MAX_SEARCH_LENGTH
from pipeline.kernels.optimal_search.selby import class_bound, guess_bound
from pipeline.kernels.optimal_search.solve import (
    TREE_FIELDS,
    OptimalResult,
    WordLists,
    prepare_lists,
    root_bound,
    solve_opener,
    solve_openers,
)
from pipeline.kernels.optimal_search.state_search import Policy, StateSearch

__all__ = [
    "INF",
    "MAX_SEARCH_LENGTH",
    "TREE_FIELDS",
    "OptimalResult",
    "Policy",
    "StateSearch",
    "WordLists",
    "class_bound",
    "guess_bound",
    "opener_bounds",
    "prepare_lists",
    "root_bound",
    "solve_opener",
    "solve_openers",
]
