"""Which openers the certified top list needs proven, and the list itself.

The stop rule: once K openers are proven, T (the K-th best proven total) is an upper bound
on the K-th best total of all; an opener whose proven lower bound exceeds T cannot be in
the top K, so it needs no search. The optimal stage applies it in three steps: the best K
of the two-step ranking are proven (T0); every allowed word is bounded (a third level
below T0 + 1); the K lowest-bounded openers not yet proven are proven (T1 <= T0); and every
opener still unproven whose bound is at most T1 is searched with the cutoff T1 + 1, which
proves its total when that is at most T1 and else a lower bound above it. Ties at T are
in the list; each value depends only on the inputs, never on how the work was split.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TypeVar

import pyarrow as pa

Item = TypeVar("Item")


def stop_total(totals: Collection[int | None], top: int) -> int | None:
    """T of the stop rule: the top-th best proven total, or the worst proven one when
    fewer than top openers have a tree (None when none has)."""
    feasible = sorted(t for t in totals if t is not None)
    if not feasible:
        return None
    return feasible[min(top, len(feasible)) - 1]


def contenders(bounds: Mapping[int, int | None], proven: Collection[int], limit: int | None
               ) -> list[int]:  # fmt: skip
    """The unproven openers whose bound does not exceed `limit` (every one with a bound
    when limit is None), by bound, then word id: those the stop rule must search."""
    chosen = sorted(
        (b, o)
        for o, b in bounds.items()
        if b is not None and o not in proven and (limit is None or b <= limit)
    )
    return [opener for _, opener in chosen]


def deal(items: Sequence[Item], part: int, parts: int) -> list[Item]:
    """Part `part` of `parts`: items part, part + parts, ... (the work of similar items
    spreads evenly)."""
    if not 0 <= part < parts:
        raise ValueError(f"part {part} is not in 0..{parts - 1}")
    return list(items[part::parts])


def certify_top(table: pa.Table, top: int) -> pa.Table:
    """Mark each mode's certified top list (in_top, top_rank): the proven totals at most
    the top-th best, ties included (every proven total when fewer). It is certified only
    when every other row is bounded above that total; a row that is not is an error."""
    rows = table.to_pylist()
    for mode in dict.fromkeys(row["mode"] for row in rows):
        of_mode = [row for row in rows if row["mode"] == mode]
        limit = stop_total([row["total_guesses"] for row in of_mode], top)
        if limit is None:
            continue
        totals = sorted(row["total_guesses"] for row in of_mode if row["total_guesses"] is not None)
        for row in of_mode:
            total = row["total_guesses"]
            if total is not None and total <= limit:
                row["in_top"] = True
                row["top_rank"] = 1 + sum(t < total for t in totals)
            elif not row["proven"] and (row["lower_bound"] is None or row["lower_bound"] <= limit):
                raise ValueError(
                    f"{mode} mode: {row['opener']} is neither proven nor bounded above "
                    f"{limit}, the top list's last total: the top list is not certified"
                )
    return pa.Table.from_pylist(rows, schema=table.schema)
