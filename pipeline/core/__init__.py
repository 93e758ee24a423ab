"""Shared vocabulary of every layer: errors, atomic files, the tie rule, Wordle's rules.

Plain Python and numpy only, so that any module may import it cheaply.
"""
