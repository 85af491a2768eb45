#!/usr/bin/env bash
# make test-node: build score-node, then run the JavaScript test suite against it.
set -euo pipefail
cd "$(dirname "$0")/../.."
score-node/scripts/build.sh
# Code generation from strings (eval, new Function) throws: the package compiles nothing from
# text (its helper functions are score_helpers.mjs, generated at build time).
SCORE_IMPL=node node --disallow-code-generation-from-strings --test score-node/test/
# The package as npm publishes it: packed, installed in a fresh folder, required, imported, typed.
score-node/scripts/pack-test.sh score-node
