"""`wordle-assist`, the terminal assistant: one module per concern (ARCHITECTURE.md).

Importing the package imports none of its modules: the console script loads only what
an answer needs (pipeline.commands.assistant.script, then .cli).
"""
