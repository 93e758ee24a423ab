"""The days the NYT played: `archive` (the answers by date, checked, and their table),
`prior` (the history prior of a day and its backtest) and `replay` (the benchmark's
strategies on the played days)."""
