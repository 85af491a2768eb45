#!/usr/bin/env bash
# Instructions per report, deterministic (valgrind --tool=cachegrind --cache-sim=no): the loop
# of loop.rs over the benches' profile, 1,200 reports minus 200 (so the first report, which reads
# the embedded figures, and the process's start cancel out), with and without what-ifs, for each
# commit given, each built in an export of its own tree (`git archive`; one target directory
# under $WORK for all, so only score-core is rebuilt per commit, and each binary copied out
# before the next build).
#
#   benches/instructions/run.sh [--figures REV] COMMIT...
#
# --figures REV: every export scores with REV's score-core/calibration/mx-2026.toml, so that a
# tree that reads its default figures from that file is compared with older commits under the
# same figures (a commit whose figures are compiled in is unaffected). KEEP=DIR keeps each
# binary there (`instructions_loop-COMMIT`, for callgrind).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/instructions-$$}
command -v valgrind >/dev/null || {
  $( [ "$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q valgrind
}
FIGURES=
if [ "${1:-}" = --figures ]; then FIGURES=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [--figures REV] COMMIT..." >&2; exit 2; }
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
count() { # binary, reports, mode -> instructions
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 \
    | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
printf '%-12s %12s %12s\n' commit "with what-ifs" without
for rev in "$@"; do
  tree=$WORK/$(git -C "$ROOT" rev-parse --short "$rev")
  mkdir -p "$tree"
  git -C "$ROOT" archive "$rev" | tar -x -m -C "$tree"  # -m: newer than any earlier build, so cargo rebuilds score-core
  [ -z "$FIGURES" ] || git -C "$ROOT" show "$FIGURES:score-core/calibration/mx-2026.toml" > "$tree/score-core/calibration/mx-2026.toml"
  mkdir -p "$tree/score-core/examples"
  cp "$ROOT/benches/instructions/loop.rs" "$tree/score-core/examples/instructions_loop.rs"
  (cd "$tree" && CARGO_TARGET_DIR=$WORK/target cargo build -q --release -p score-core --example instructions_loop)
  bin=$tree/instructions_loop
  cp "$WORK/target/release/examples/instructions_loop" "$bin"
  with=$(( ($(count "$bin" 1200 con) - $(count "$bin" 200 con)) / 1000 ))
  without=$(( ($(count "$bin" 1200 sin) - $(count "$bin" 200 sin)) / 1000 ))
  printf '%-12s %12s %12s\n' "$rev" "$with" "$without"
  [ -z "${KEEP:-}" ] || cp "$bin" "$KEEP/instructions_loop-$rev"
  rm -rf "$tree"
done
