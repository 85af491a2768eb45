# score-docs: the payroll-receipt reader (CFDI + Nómina 1.2). See score-docs/README.md.
# Fixtures, profile cases and the safety proptests (arbitrary bytes, mutated receipts,
# billion laughs, XXE, depth and size limits) all run in plain `cargo test`.
TEST_TARGETS += test-docs

.PHONY: test-docs bench-docs
test-docs:
	$(CARGO) test -p score-docs --locked

bench-docs:
	$(CARGO) bench -p score-docs --locked --bench read_cfdi
