#!/usr/bin/env bash
# make test-node: build score-node, then run the JavaScript test suite against it.
set -euo pipefail
cd "$(dirname "$0")/../.."
score-node/scripts/build.sh
SCORE_IMPL=node node --test score-node/test/
