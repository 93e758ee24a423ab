"""The solver benchmark: `game_state` (what every strategy reads, and what a player knows
before a guess), `node_choices` (the best guess of one node), `strategies` (the guess rules),
`optimal_strategy` (a stored optimal tree, played and checked), `games` (every answer
played, as one decision tree), `units` (the benchmark split into units, a job each) and
`tables` (the games, the summary and the score model as tables)."""
