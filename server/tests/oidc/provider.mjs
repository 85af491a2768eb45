// Loopback OpenID Provider for the server's end-to-end tests (npm oidc-provider, panva).
// Dev interactions are on: any login name is accepted with any password, then consent.
// Environment: OP_CLIENT_ID, OP_CLIENT_SECRET, OP_REDIRECT_URI, OP_USERINFO_ONLY,
// OP_LOOPBACK_ANY_PORT (=1: the client is a `native` one, whose loopback redirect URI matches
// on any port, RFC 8252 7.3; for a client started after the provider on a port the kernel
// picks, e.g. OP_REDIRECT_URI=http://127.0.0.1/api/auth/idp/callback).
// Accounts: login `<name>` gets e-mail `<name>@example.test`; names starting with
// `unverified` get `email_verified: false`; names of the form `x--user@domain` use that
// e-mail (`x` prefix dropped), so a test can log in as an existing local account.
// It listens on a port the kernel picks and prints its issuer URL as its first line of output
// (the tests read it; they never guess a free port).
import http from 'node:http';
import Provider from 'oidc-provider';

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

function emailFor(login) {
  const m = /^x--(.+@.+)$/.exec(login);
  return m ? m[1] : `${login}@example.test`;
}

const provider = new Provider(issuer, {
  clients: [{
    client_id: process.env.OP_CLIENT_ID || 'platform-test',
    client_secret: process.env.OP_CLIENT_SECRET || 'platform-test-secret',
    redirect_uris: [process.env.OP_REDIRECT_URI],
    ...(process.env.OP_LOOPBACK_ANY_PORT === '1' ? { application_type: 'native' } : {}),
    grant_types: ['authorization_code'],
    response_types: ['code'],
  }],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'given_name', 'family_name'],
  },
  // By default the scope claims go into the ID token too; with OP_USERINFO_ONLY=1 they are
  // served only by the UserInfo endpoint (the library's spec-conform default).
  conformIdTokenClaims: process.env.OP_USERINFO_ONLY === '1',
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['test-only-cookie-key'] },
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          email: emailFor(id),
          email_verified: !id.startsWith('unverified'),
          name: `Test ${id}`,
          given_name: 'Test',
          family_name: id,
        };
      },
    };
  },
});

server.on('request', provider.callback());
console.log(issuer);
process.on('SIGTERM', () => process.exit(0));
