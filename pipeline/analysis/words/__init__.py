"""The words: the word lists and the frequency counts (bytes in, checked words and counts
out, errors naming the user's file and line), and each word's commonness from its count.
`word_lists` (the lists in, the word index out), `frequency` (the counts), `line_blocks`
(the counts' bytes as decoded blocks of whole lines, in bounded memory), `commonness`
(p_common from the frequency rank)."""
