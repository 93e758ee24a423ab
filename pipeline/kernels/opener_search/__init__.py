"""The opener search: the best second guess for each bucket of answers an opener leaves.

`settings` holds every tuning constant and names each bound and when it applies;
`SearchSettings` switches each mechanism off (the same winners, more time). The public
faces are `count_search.CountSearch` (answers uniform, over stored pattern columns) and
`weighted.weighted_winner` (every word a candidate, weighted); with `build_letter_groups`
and `SearchSettings` they are what this package exports, and all that other modules use.
The kernels share their state as the named structures of `state`, and are grouped by
concept: `scoring` (scores and exact tie lists), `letter_groups` and `pair_bound` (the
two bounds), `buckets` (the three ways to solve a bucket), `prefetch` (a cache hint).
"""

from pipeline.kernels.opener_search.count_search import CountSearch
from pipeline.kernels.opener_search.letter_groups import build_letter_groups
from pipeline.kernels.opener_search.settings import SearchSettings
from pipeline.kernels.opener_search.weighted import weighted_winner

__all__ = ["CountSearch", "SearchSettings", "build_letter_groups", "weighted_winner"]
