# The web app (web/): built with npm, then its browser suite in Debian's Chromium against the
# real server on SQLite with an SMTP sink (see web/scripts/test.sh, which installs what is
# missing, including score-wasm's browser package).
TEST_TARGETS += test-web

.PHONY: test-web
test-web:
	bash web/scripts/test.sh
