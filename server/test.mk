# The server's end-to-end suite on SQLite and on PostgreSQL (see server/scripts/test.sh, which
# installs PostgreSQL, the SMTP sink and the OpenID provider when missing).
TEST_TARGETS += test-server

.PHONY: test-server
test-server:
	bash server/scripts/test.sh
