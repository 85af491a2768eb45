# score-py: the Python package platform_score (pyo3 + maturin). See score-py/README.md.
TEST_TARGETS += test-py

.PHONY: test-py bench-py bench-cfdi-py
test-py:
	score-py/scripts/test.sh

# Benchmark against the pure-Python reference (figures quoted in score-py/README.md).
bench-py:
	score-py/scripts/test.sh --build-only
	.venv/bin/python benches/python/bench_py.py

# 10,000 sealed payroll receipts read in Python, seals checked (issue 43; figures in score-py/README.md).
bench-cfdi-py:
	score-py/scripts/test.sh --build-only
	.venv/bin/python benches/python/bench_cfdi.py
