#!/usr/bin/env bash
# Resident memory of the server before, during and after a burst of logins (issue 21: it must
# come back under 150 MB). Every login verifies an Argon2id hash (19 MiB of working memory with
# the default parameters); the server reuses that memory from one hash to the next
# (security.rs, MemoryPool), so resident memory stays bounded by PASSWORD_HASH_CONCURRENCY buffers.
#
#   bash benches/server/memory.sh [concurrency] [seconds]
#
# Prints VmRSS (from /proc/PID/status) before the burst, its peak during it, and 5 s after.
CONCURRENCY="${1:-32}"
SECONDS_OF_BURST="${2:-20}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
EMAIL="bench-admin@example.test"
PASSWORD="bench password 2026 long"
ADMIN_PASSWORD="$PASSWORD" "$SERVER" create-admin --email "$EMAIL" >/dev/null
printf '{"email":"%s","password":"%s"}' "$EMAIL" "$PASSWORD" > "$WORK/login.json"
start_server AUTH_RATE_LIMIT_PER_MINUTE=100000000
rss() { awk '/VmRSS/ {printf "%.1f", $2/1024}' "/proc/$SERVER_PID/status"; }
echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); database: $DATABASE_URL"
echo "rss before: $(rss) MB"
"$LOADGEN" --base "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" --seconds "$SECONDS_OF_BURST" \
  "POST /api/auth/login @$WORK/login.json" > "$WORK/burst.jsonl" &
LOAD_PID=$!
PEAK=0
while kill -0 "$LOAD_PID" 2>/dev/null; do
  now="$(rss)"; PEAK="$(python3 -c "print(max($PEAK, $now))")"; sleep 0.5
done
wait "$LOAD_PID"
cat "$WORK/burst.jsonl"
echo "rss peak during the burst: $PEAK MB"
sleep 5
AFTER="$(rss)"
echo "rss 5 s after the burst: $AFTER MB (target: < 150 MB)"
python3 -c "import sys; sys.exit(0 if $AFTER < 150 else 1)" || { echo "ABOVE TARGET"; exit 1; }
