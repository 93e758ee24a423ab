"""The proven-optimal trees around their search (pipeline.kernels.optimal_search):
`edition_plan` (an edition's optimal settings resolved once: `OptimalPlan`),
`certified_top` (the stop rule of the certified top list), `tables` (which openers are
solved, a search result as rows, the best proven opener) and `tree` (the one in-memory type
of a stored optimal tree)."""
