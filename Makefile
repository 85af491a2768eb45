# platform-score: one entry point for every test suite of the repository.
#
#   make test        every suite: score-core, then each surface that ships a test.mk
#   make test-core   score-core only (fixtures, properties, snapshots, MODEL.md agreement)
#   make bless       rewrite fixtures/cases/*.json "expected" from score-core (review the diff!)
#   make bench       criterion benches of score-core (figures quoted in README.md)
#
# Each surface (score-py, score-node/score-wasm, server) owns a `test.mk` in its folder that
# appends its target to TEST_TARGETS and installs what it needs when it is missing, so a new
# surface plugs in without editing this file.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
CARGO ?= cargo

TEST_TARGETS := test-core
include $(sort $(wildcard */test.mk))

.PHONY: test test-core bless bench sample
test: $(TEST_TARGETS)
	@echo "make test: all suites passed ($(TEST_TARGETS))"

test-core:
	$(CARGO) test -p score-core --locked --features batch

bless:
	BLESS=1 $(CARGO) test -p score-core --locked --test fixtures

bench:
	$(CARGO) bench -p score-core --locked --features batch --bench score

# Scores the sample profile of the README.
sample:
	$(CARGO) run -q -p score-core --example score -- fixtures/sample-profile.json
