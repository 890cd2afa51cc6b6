#!/usr/bin/env bash
# Echo the JSON arguments back: an example tool of the {{name}} skill.
# Usage: scripts/example.sh '{"ping": true}'   (or the JSON on stdin)
set -euo pipefail

if [ "$#" -ge 1 ]; then
  input="$1"
else
  input="$(cat)"
fi
# One line of output: JSON text holds no raw newlines inside strings, so they are only spacing.
args="$(printf '%s' "$input" | tr '\n\r\t' '   ')"
trimmed="$(printf '%s' "$args" | sed -e 's/^ *//' -e 's/ *$//')"
if [ -z "$trimmed" ]; then
  trimmed='{}'
fi

case "$trimmed" in
  \{*\})
    printf '{"success": true, "result": {"skill": "%s", "args": %s}}\n' '{{name}}' "$trimmed"
    ;;
  *)
    printf '{"success": false, "error": "arguments must be a JSON object"}\n'
    exit 1
    ;;
esac
