"""What the benchmarks print against their floors: a table of each mode's figures with its
ratios to the bare floor, and the check that a floor did real work.

A ratio of moves per second is the mode's rate over the bare floor's (1.00 is as fast as the
least the framework can do; lower is slower); a ratio of p99 is the mode's p99 over the bare
floor's (higher is slower). Both come from rounds interleaved in the same run, so the machine's
speed of the day cancels out of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One mode's figures: moves per second, latency p50 and p99 in seconds, refusals."""

    label: str
    rate: float
    p50: float
    p99: float
    errors: int


def ratio_table(rows: list[Row], own: list[Row] | None = None) -> list[str]:
    """The rows as a text table, the first row (the bare floor) the reference of the ratios.

    With ``own`` (one row per row: the bare floor measured under the same server as it), two
    more columns give each row's ratios to that floor too."""
    reference = rows[0]
    width = max(len(row.label) for row in rows)
    header = (f"{'':{width}}  {'moves/s':>8}  {'p50':>9}  {'p99':>9}  {'errors':>6}  "
              f"{'moves/s ratio':>13}  {'p99 ratio':>9}")
    if own:
        header += f"  {'own floor: moves/s ratio':>24}  {'p99 ratio':>9}"
    lines = [header]
    for n, row in enumerate(rows):
        line = (f"{row.label:{width}}  {row.rate:8.1f}  {1000 * row.p50:6.1f} ms  "
                f"{1000 * row.p99:6.1f} ms  {row.errors:6d}  "
                f"{_ratio(row.rate, reference.rate):13.2f}  {_ratio(row.p99, reference.p99):9.2f}")
        if own:
            line += (f"  {_ratio(row.rate, own[n].rate):24.2f}  "
                     f"{_ratio(row.p99, own[n].p99):9.2f}")
        lines.append(line)
    return lines


def _ratio(value: float, reference: float) -> float:
    return value / reference if reference else float("nan")


def floor_work_problem(label: str, accepted: int, rows: int, versions: int) -> str | None:
    """Why a floor's run cannot be trusted, or None: every accepted move must have written its
    row and advanced its match's version (the floor matches start at version 0 with no move)."""
    if accepted == 0:
        return f"{label}: no move was accepted"
    if rows != versions:
        return f"{label}: {rows} move rows written but the versions advanced by {versions}"
    if rows < accepted:
        return f"{label}: {accepted} moves answered 201 but only {rows} move rows written"
    return None
