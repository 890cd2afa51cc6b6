#!/usr/bin/env python3
"""Summarise a list of numbers (count, mean, min, max) and draw a small text histogram."""
import json
import math
import sys


def fmt(x):
    """Format a bin edge compactly: integers without decimals, others with 2."""
    return str(int(x)) if float(x).is_integer() else "%.2f" % x


def histogram(values, bins):
    low, high = min(values), max(values)
    if low == high:
        return ["%s  %s" % (fmt(low), "#" * len(values))]
    width = (high - low) / bins
    counts = [0] * bins
    for v in values:
        counts[min(int((v - low) / width), bins - 1)] += 1
    return ["%s-%s  %s" % (fmt(low + i * width), fmt(low + (i + 1) * width), "#" * c)
            for i, c in enumerate(counts)]


def main(args):
    values = args.get("values")
    if not isinstance(values, list) or not values:
        raise ValueError("'values' must be a non-empty list of numbers")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError("'values' must contain only finite numbers, got %r" % (v,))
    bins = args.get("bins", 3)
    if isinstance(bins, bool) or not isinstance(bins, int) or not 1 <= bins <= 20:
        raise ValueError("'bins' must be an integer from 1 to 20")
    return {
        "count": len(values),
        "mean": sum(values) / len(values),
        "min": min(values),
        "max": max(values),
        "chart": histogram(values, bins),
    }


if __name__ == "__main__":
    try:
        raw = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()
        args = json.loads(raw or "{}")
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
        print(json.dumps({"success": True, "result": main(args)}))
        sys.exit(0)
    except Exception as exc:  # report every failure as JSON
        print(json.dumps({"success": False, "error": str(exc)}))
        sys.exit(1)
