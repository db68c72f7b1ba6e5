"""Statistics for simulations: Wilson intervals, score summaries, paired and two-proportion comparisons.

Pure Python (math only). Every interval is a 95% interval by default (z = 1.96).
"""
from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion `successes / n` (successes may be fractional: shared wins).
    Returns (low, high); (0.0, 1.0) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def normal_two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def quantile(sorted_values: Sequence, q: float) -> float:
    """Linear interpolation between closest ranks (the 'inclusive' method, as numpy's default)."""
    n = len(sorted_values)
    if n == 0:
        return float("nan")
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: Sequence) -> dict:
    """Mean, standard deviation, min, quartiles, median and max of a list of numbers."""
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        return {"n": 0}
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return {"n": n, "mean": mean, "sd": math.sqrt(var), "min": xs[0], "q1": quantile(xs, 0.25),
            "median": quantile(xs, 0.5), "q3": quantile(xs, 0.75), "max": xs[-1]}


def histogram(values: Sequence, max_bins: int = 20) -> list:
    """[(low, high, count)] over integer-friendly bins covering the values (high exclusive, last inclusive)."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    if lo == hi:
        return [(lo, hi, len(values))]
    width = (hi - lo) / max_bins
    if all(float(v).is_integer() for v in values):
        width = max(1, math.ceil(width))
        bins = int((hi - lo) // width) + 1
    else:
        bins = max_bins
    counts = [0] * bins
    for v in values:
        counts[min(int((v - lo) / width), bins - 1)] += 1
    return [(lo + i * width, lo + (i + 1) * width, c) for i, c in enumerate(counts)]


def paired_difference(base: Sequence, other: Sequence, z: float = Z95) -> dict:
    """Mean of other[i] - base[i] over pairs (the same seeds), its interval and a paired z-test p-value."""
    n = len(base)
    if n == 0 or n != len(other):
        return {"n": n, "diff": 0.0, "low": 0.0, "high": 0.0, "p": 1.0}
    d = [o - b for b, o in zip(base, other)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    if se == 0:
        return {"n": n, "diff": mean, "low": mean, "high": mean, "p": 1.0 if mean == 0 else 0.0}
    return {"n": n, "diff": mean, "low": mean - z * se, "high": mean + z * se, "p": normal_two_sided_p(mean / se)}


def two_proportions(s1: float, n1: int, s2: float, n2: int, z: float = Z95) -> dict:
    """Difference p2 - p1 of two independent proportions: Wald interval (unpooled) and a pooled z-test."""
    if n1 == 0 or n2 == 0:
        return {"diff": 0.0, "low": -1.0, "high": 1.0, "p": 1.0}
    p1, p2 = s1 / n1, s2 / n2
    diff = p2 - p1
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    pooled = (s1 + s2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se0 == 0 else normal_two_sided_p(diff / se0)
    return {"diff": diff, "low": max(-1.0, diff - z * se), "high": min(1.0, diff + z * se), "p": p}


__all__ = ["Z95", "describe", "histogram", "normal_two_sided_p", "paired_difference", "quantile",
           "two_proportions", "wilson"]
