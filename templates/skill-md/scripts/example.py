#!/usr/bin/env python3
"""Greet someone by name: an example tool of the {{name}} skill.

Usage: python3 scripts/example.py '{"name": "Ada"}'   (or the JSON on stdin)
Prints {"success": true, "result": {...}} or {"success": false, "error": "..."} and exits 1.
"""
import json
import sys


def main(args):
    if not isinstance(args, dict):
        raise ValueError("arguments must be a JSON object")
    who = args.get("name", "world")
    if not isinstance(who, str) or not who:
        raise ValueError("name must be non-empty text")
    return {"greeting": "Hello, %s!" % who}


if __name__ == "__main__":
    try:
        raw = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()
        result = main(json.loads(raw.strip() or "{}"))
        print(json.dumps({"success": True, "result": result}))
    except Exception as exc:  # report every failure in the JSON convention
        print(json.dumps({"success": False, "error": str(exc)}))
        sys.exit(1)
