#!/usr/bin/env bash
# Does the time of forgot-password and resend-verification tell a registered address from an
# unknown one? (issue 21: it must not.) Sends interleaved requests for a known and an unknown
# address on one kept-alive connection and prints the median and the quartiles of each.
#
#   bash benches/server/enumeration_timing.sh [samples]
SAMPLES="${1:-200}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
EMAIL="bench-known@example.test"
ADMIN_PASSWORD="bench password 2026 long" "$SERVER" create-admin --email "$EMAIL" >/dev/null
start_server AUTH_RATE_LIMIT_PER_MINUTE=100000000
echo "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); database: $DATABASE_URL"
python3 - "$PORT" "$SAMPLES" "$EMAIL" <<'PY'
import http.client, json, statistics, sys, time
port, samples, known = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
conn = http.client.HTTPConnection("127.0.0.1", port)
def post(path, email):
    body = json.dumps({"email": email})
    t = time.perf_counter()
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    r = conn.getresponse(); r.read()
    assert r.status == 200, r.status
    return (time.perf_counter() - t) * 1000
pending = "bench-pending@example.test"
conn.request("POST", "/api/auth/register", json.dumps({"firstName": "Ana", "lastName": "Bench",
    "email": pending, "password": "bench password 2026 long", "role": "comprador",
    "acceptedTerms": True}), {"Content-Type": "application/json"})
r = conn.getresponse(); r.read(); assert r.status == 201, r.status
# forgot-password: an active account; resend-verification: a pending one (the case that sends).
for path, known in (("/api/auth/forgot-password", known), ("/api/auth/resend-verification", pending)):
    times = {"known": [], "unknown": []}
    for i in range(samples):
        for kind in (("known", "unknown") if i % 2 else ("unknown", "known")):
            email = known if kind == "known" else f"nobody-{i}@example.test"
            times[kind].append(post(path, email))
    for kind, ts in times.items():
        q = statistics.quantiles(ts, n=4)
        print(f"{path} {kind:8s} median {statistics.median(ts):.3f} ms  (q1 {q[0]:.3f}, q3 {q[2]:.3f}; {len(ts)} samples)")
PY
