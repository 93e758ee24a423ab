"""Every guess as an opener: `entropy_maps` (the entropy of each guess's replies, and the
buckets), `two_step` (the two-step search: the best second guess per reply), `tables` (the
ranking's part rows, the merge, the ranks) and `pattern_spelling` (reply ids spelled as a
column of those tables)."""
