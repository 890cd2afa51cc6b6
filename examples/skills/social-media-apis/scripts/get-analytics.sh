#!/usr/bin/env bash
# Retrieve engagement metrics for a platform (dry run: validates input and reports the query it would make).
set -euo pipefail

# Print {"success": false, "error": MESSAGE} and exit 1.
fail() {
  python3 -c 'import json, sys; print(json.dumps({"success": False, "error": sys.argv[1]}))' "$1"
  exit 1
}

if [ "$#" -ge 1 ]; then
  input="$1"
else
  input="$(cat)"
fi

# Read "platform<TAB>hours" from the JSON arguments (defaults: twitter, 24).
parsed="$(printf '%s' "$input" | python3 -c '
import json, sys
try:
    args = json.loads(sys.stdin.read() or "{}")
except ValueError:
    sys.exit(2)
if not isinstance(args, dict):
    sys.exit(2)
print("%s\t%s" % (args.get("platform", "twitter"), args.get("hours", 24)))
')" || fail "arguments must be a JSON object"
IFS=$'\t' read -r platform hours <<< "$parsed"

case "$platform" in
  twitter) key_name="TWITTER_API_KEY" ;;
  instagram) key_name="INSTAGRAM_ACCESS_TOKEN" ;;
  *) fail "unknown platform: $platform (use twitter or instagram)" ;;
esac

case "$hours" in
  '' | *[!0-9]*) fail "'hours' must be a positive integer" ;;
esac
[ "$hours" -gt 0 ] || fail "'hours' must be a positive integer"

if [ -z "${!key_name:-}" ]; then
  fail "$key_name is not set"
fi

printf '{"success": true, "result": "dry run: would fetch %s analytics for the last %s hours"}\n' "$platform" "$hours"
