# score-docs: the payroll-receipt reader (CFDI + Nómina 1.2). See score-docs/README.md.
# test-docs: fixtures, profile cases and the safety proptests (arbitrary bytes, mutated
# receipts, billion laughs, XXE, depth and size limits), all in plain `cargo test`.
# test-docs-wasm: the WebAssembly module (score-docs/wasm) against the same fixtures, with the
# node:test file score-node's suite also runs (score-node/test/cfdi.test.mjs).
TEST_TARGETS += test-docs test-docs-wasm

.PHONY: test-docs test-docs-wasm bench-docs
test-docs:
	$(CARGO) test -p score-docs --locked

test-docs-wasm:
	score-docs/wasm/build.sh
	SCORE_IMPL=wasm node --disallow-code-generation-from-strings --test score-node/test/cfdi.test.mjs

bench-docs:
	$(CARGO) bench -p score-docs --locked --bench read_cfdi
