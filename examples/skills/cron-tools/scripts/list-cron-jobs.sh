#!/usr/bin/env bash
# List the scheduled jobs stored in a JSON schedule file (args.file).
set -euo pipefail

if [ "$#" -ge 1 ]; then
  input="$1"
else
  input="$(cat)"
fi

exec python3 -c '
import json, os, sys

def main(args):
    if not isinstance(args, dict):
        raise ValueError("arguments must be a JSON object")
    path = args.get("file")
    if not isinstance(path, str) or not path:
        raise ValueError("file must be a non-empty string")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    jobs = data.get("jobs") if isinstance(data, dict) else None
    if not isinstance(jobs, list):
        raise ValueError("schedule file must hold an object with a \"jobs\" list")
    return jobs

try:
    result = main(json.loads(sys.argv[1] or "{}"))
    print(json.dumps({"success": True, "result": result}))
except Exception as exc:
    print(json.dumps({"success": False, "error": str(exc)}))
    sys.exit(1)
' "$input"
