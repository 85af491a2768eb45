// The app's paths. The server answers index.html for exactly these (server/src/web.rs PAGES;
// the end-to-end suite opens each one through the server).
export const PATHS = {
  home: '/',
  login: '/login',
  register: '/register',
  terms: '/terms',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  authCallback: '/auth/callback',
  idpCallback: '/auth/idp/callback',
  account: '/account',
  calculator: '/calculator',
  profile: '/profile/:id',
  agents: '/agents',
  agent: '/agents/:id',
  office: '/office',
  leads: '/leads',
};
