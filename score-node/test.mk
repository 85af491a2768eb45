# score-node: the Node.js addon (napi-rs). See score-node/README.md.
TEST_TARGETS += test-node

.PHONY: test-node
test-node:
	score-node/scripts/test.sh
