"""The user commands: `wordle-pipeline` (check artifacts) and `wordle-assist`."""
