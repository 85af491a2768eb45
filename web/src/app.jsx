// The app shell: session, header navigation, the routes of routes.js and the footer.
import { LocationProvider, Router, Route, lazy, ErrorBoundary } from 'preact-iso';
import { SessionProvider, useSession } from './session.jsx';
import { PATHS } from './routes.js';
import { Home } from './pages/home.jsx';
import { NotFound } from './pages/not-found.jsx';
import { Login, Register, Terms, VerifyEmail, ForgotPassword, ResetPassword, AuthCallback, Account } from './pages/accounts.jsx';

// The calculator carries score-wasm; it and the other areas load on first visit.
const Calculator = lazy(() => import('./pages/calculator.jsx').then((m) => m.Calculator));
const Profile = lazy(() => import('./pages/profile.jsx').then((m) => m.Profile));
const Agents = lazy(() => import('./pages/agents.jsx').then((m) => m.Agents));
const Agent = lazy(() => import('./pages/agent.jsx').then((m) => m.Agent));
const Office = lazy(() => import('./pages/office.jsx').then((m) => m.Office));
const Leads = lazy(() => import('./pages/leads.jsx').then((m) => m.Leads));

function Header() {
  const { user } = useSession();
  return (
    <header class="site-header">
      <a class="brand" href="/">
        <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
          <rect width="32" height="32" rx="6" fill="currentColor" />
          <path d="M6 16 16 7l10 9v9H19v-6h-6v6H6z" fill="#fff" />
        </svg>
        <span>Plataforma inmobiliaria</span>
      </a>
      <nav aria-label="Principal">
        <ul>
          <li><a href="/calculator">Calculadora</a></li>
          <li><a href="/agents">Agentes</a></li>
          {user && (user.role === 'agency_admin' || user.role === 'admin') && <li><a href="/office">Mi oficina</a></li>}
          {user?.role === 'agent' && <li><a href="/leads">Mis prospectos</a></li>}
          {user ? (
            <li><a href="/account">Mi cuenta</a></li>
          ) : (
            <>
              <li><a href="/login">Entrar</a></li>
              <li><a href="/register" class="nav-cta">Crear cuenta</a></li>
            </>
          )}
        </ul>
      </nav>
    </header>
  );
}

export function App() {
  return (
    <LocationProvider scope={/^\/(?!api\/)/}>
      <SessionProvider>
        <a class="skip-link" href="#contenido">Saltar al contenido</a>
        <Header />
        <main id="contenido" class="container">
          <ErrorBoundary>
            <Router>
              <Route path={PATHS.home} component={Home} />
              <Route path={PATHS.login} component={Login} />
              <Route path={PATHS.register} component={Register} />
              <Route path={PATHS.terms} component={Terms} />
              <Route path={PATHS.verifyEmail} component={VerifyEmail} />
              <Route path={PATHS.forgotPassword} component={ForgotPassword} />
              <Route path={PATHS.resetPassword} component={ResetPassword} />
              <Route path={PATHS.authCallback} component={AuthCallback} />
              <Route path={PATHS.idpCallback} component={AuthCallback} />
              <Route path={PATHS.account} component={Account} />
              <Route path={PATHS.calculator} component={Calculator} />
              <Route path={PATHS.profile} component={Profile} />
              <Route path={PATHS.agents} component={Agents} />
              <Route path={PATHS.agent} component={Agent} />
              <Route path={PATHS.office} component={Office} />
              <Route path={PATHS.leads} component={Leads} />
              <Route default component={NotFound} />
            </Router>
          </ErrorBoundary>
        </main>
        <footer class="site-footer">
          <p>
            El puntaje es indicativo y no es una aprobación de crédito. <a href="/terms">Términos y aviso de privacidad</a>
          </p>
        </footer>
      </SessionProvider>
    </LocationProvider>
  );
}
