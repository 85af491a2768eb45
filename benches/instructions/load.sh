#!/usr/bin/env bash
# Instructions per load of a calibration, deterministic (valgrind --tool=cachegrind
# --cache-sim=no): the loop of load_loop.rs, `Calibration::from_toml` of the embedded text,
# 60 loads minus 10 (so the process's start and the first use of the embedded figures cancel
# out), for each commit given, each built in an export of its own tree (`git archive`; one
# target directory under $WORK for all, so only score-core is rebuilt per commit).
#
#   benches/instructions/load.sh COMMIT...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/instructions-load-$$}
command -v valgrind >/dev/null || {
  $( [ "$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q valgrind
}
[ $# -gt 0 ] || { echo "usage: $0 COMMIT..." >&2; exit 2; }
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
count() { # binary, loads -> instructions
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$1" "$2" 2>&1 \
    | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
printf '%-12s %14s\n' commit "per load"
for rev in "$@"; do
  tree=$WORK/$(git -C "$ROOT" rev-parse --short "$rev")
  mkdir -p "$tree"
  git -C "$ROOT" archive "$rev" | tar -x -m -C "$tree"
  mkdir -p "$tree/score-core/examples"
  cp "$ROOT/benches/instructions/load_loop.rs" "$tree/score-core/examples/instructions_load.rs"
  (cd "$tree" && CARGO_TARGET_DIR=$WORK/target cargo build -q --release -p score-core --example instructions_load)
  bin=$tree/instructions_load
  cp "$WORK/target/release/examples/instructions_load" "$bin"
  printf '%-12s %14s\n' "$rev" $(( ($(count "$bin" 60) - $(count "$bin" 10)) / 50 ))
  rm -rf "$tree"
done
