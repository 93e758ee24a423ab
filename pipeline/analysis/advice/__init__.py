"""What a guess is worth at a game state, as the assistant shows it: `splits` (a guess's
split of the candidates), `guess_values` (the exact value under the assistant's policy),
`estimate` (prior mode's estimate, which only orders guesses) and `fallback` (playing on
over the allowed words when the replies rule out every answer)."""
