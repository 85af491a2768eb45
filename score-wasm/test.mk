# score-wasm: WebAssembly build, the shared JS suite against it, the TypeScript check and the
# browser end-to-end test in headless Chromium. See score-wasm/README.md.
TEST_TARGETS += test-wasm

.PHONY: test-wasm bench-js
test-wasm:
	score-wasm/scripts/test.sh

# score-node vs score-wasm vs native score-core, side by side (figures in score-wasm/README.md).
bench-js:
	benches/js/run.sh
