#!/usr/bin/env bash
# A bounded schemathesis run (PyPI) against the server's own /openapi.json: every operation is
# called with the documented examples and generated valid and invalid inputs, anonymously and
# as an administrator, and each answer must be no 5xx, a documented status, the documented
# content type and a body that matches the documented schema. Exits non-zero on any failure.
#
# Usage: bash server/scripts/schemathesis.sh [SERVER_BINARY] [max examples per operation = 30]
# (server/scripts/test.sh runs it with the binary its tests built; SQLite, a throwaway folder).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SERVER="${1:-${CARGO_TARGET_DIR:-$ROOT/target}/debug/server}"
MAX_EXAMPLES="${2:-30}"
VENV="$ROOT/.venv"

if ! "$VENV/bin/python" -c 'import schemathesis' >/dev/null 2>&1; then
  echo "==> installing schemathesis into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q 'schemathesis==4.32.5'
fi

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# PORT=0: the kernel picks a free port and the server logs it (no port guessed as free).
export DATA_DIR="$WORK/data" HOST=127.0.0.1 PORT=0 RUST_LOG=warn,server::cli=info LOG_FORMAT=json \
  AUTH_RATE_LIMIT_PER_MINUTE=100000 SCORE_RATE_LIMIT_PER_MINUTE=100000 \
  ARGON2_MEMORY_KIB=1024 ARGON2_ITERATIONS=1
ADMIN_EMAIL="schemathesis-admin@example.test"
ADMIN_PASSWORD="schemathesis $(python3 -c 'import secrets; print(secrets.token_urlsafe(12))')"
"$SERVER" create-admin --email "$ADMIN_EMAIL" --password "$ADMIN_PASSWORD" >/dev/null
"$SERVER" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
ADDRESS=""
for _ in $(seq 1 300); do
  ADDRESS="$(python3 -c 'import json,sys
for line in open(sys.argv[1]):
    try: f = json.loads(line).get("fields", {})
    except ValueError: continue
    if f.get("message") == "listening": print(f["address"]); break' "$WORK/server.log")"
  [ -n "$ADDRESS" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server exited:"; cat "$WORK/server.log"; exit 1; }
  sleep 0.1
done
[ -n "$ADDRESS" ] || { echo "the server did not listen:"; cat "$WORK/server.log"; exit 1; }
BASE="http://$ADDRESS"
TOKEN="$(curl -fsS -H 'content-type: application/json' \
  -d "{\"email\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" "$BASE/api/auth/login" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["token"])')"

cd "$WORK"   # schemathesis keeps its state in the working folder
CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
status=0
for who in anonymous admin; do
  echo "==> schemathesis ($who, at most $MAX_EXAMPLES examples per operation) against $BASE/openapi.json"
  auth=()
  [ "$who" = admin ] && auth=(-H "Authorization: Bearer $TOKEN")
  # Logging out would end the administrator's session for the rest of the run.
  "$VENV/bin/st" run "$BASE/openapi.json" "${auth[@]}" \
    --checks "$CHECKS" --max-examples "$MAX_EXAMPLES" --phases examples,coverage,fuzzing \
    --exclude-path /api/auth/logout --seed 2026 --workers 1 --request-timeout 20 --no-color \
    --generation-database none --suppress-health-check all || status=1
done
if [ "$status" -ne 0 ]; then
  echo "==> schemathesis found failures (server log: last lines)"; tail -20 "$WORK/server.log"
fi
exit "$status"
