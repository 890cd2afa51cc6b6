#!/usr/bin/env bash
# Add a job (id, schedule, task) to a JSON schedule file (args.file), creating the file if needed.
set -euo pipefail

if [ "$#" -ge 1 ]; then
  input="$1"
else
  input="$(cat)"
fi

exec python3 -c '
import json, os, re, sys

ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
FIELD = re.compile(r"^[0-9*,/-]+$")

def main(args):
    if not isinstance(args, dict):
        raise ValueError("arguments must be a JSON object")
    path, job_id = args.get("file"), args.get("id")
    schedule, task = args.get("schedule"), args.get("task")
    if not isinstance(path, str) or not path:
        raise ValueError("file must be a non-empty string")
    if not isinstance(job_id, str) or not ID.match(job_id):
        raise ValueError("id must be lowercase letters, digits and single hyphens")
    if not isinstance(schedule, str) or len(schedule.split()) != 5 \
            or not all(FIELD.match(f) for f in schedule.split()):
        raise ValueError("schedule must be a five-field cron expression such as \"0 9 * * 1\"")
    if not isinstance(task, str) or not task.strip():
        raise ValueError("task must be a non-empty string")
    data = {"jobs": []}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        if not isinstance(data, dict) or not isinstance(data.get("jobs"), list):
            raise ValueError("schedule file must hold an object with a \"jobs\" list")
    if any(isinstance(j, dict) and j.get("id") == job_id for j in data["jobs"]):
        raise ValueError("job already exists: " + job_id)
    job = {"id": job_id, "schedule": " ".join(schedule.split()), "task": task.strip(),
           "enabled": args.get("enabled", True) is not False}
    data["jobs"].append(job)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, path)
    return job

try:
    result = main(json.loads(sys.argv[1] or "{}"))
    print(json.dumps({"success": True, "result": result}))
except Exception as exc:
    print(json.dumps({"success": False, "error": str(exc)}))
    sys.exit(1)
' "$input"
