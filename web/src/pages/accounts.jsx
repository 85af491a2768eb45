// Accounts: register (with terms), the e-mail verification landing page, login, forgot and
// reset password, the external-login callback, and the profile with logout. Every message
// shown for a failure is the server's Spanish message (its error envelope).
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ApiError } from '../api.js';
import { Alert, Field, Loading, PageTitle, formValues } from '../components/ui.jsx';
import { ROLE_NAMES, homeOf, useSession } from '../session.jsx';

const MIN_PASSWORD = 12;

/** Reads a one-time token from the query and removes it from the address bar and history. */
function useOneTimeParam(name) {
  const { query } = useLocation();
  const [value] = useState(() => query[name] ?? '');
  useEffect(() => {
    if (query[name]) history.replaceState(history.state, '', location.pathname);
  }, []);
  return value;
}

/** A form's submit state: busy flag, error (ApiError) and field errors. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  async function run(fn) {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, { message: String(e.message ?? e) }));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  /** The server's length rule checked before sending, shown at the password field. */
  function passwordLongEnough(password) {
    if ([...password].length >= MIN_PASSWORD) return true;
    setError(new ApiError(422, { field: 'password', message: `La contraseña debe tener al menos ${MIN_PASSWORD} caracteres.` }));
    return false;
  }
  return { busy, error, setError, run, passwordLongEnough, fieldError: (f) => (error?.field === f ? error.message : undefined) };
}

export function Login() {
  const { signIn } = useSession();
  const { route, query } = useLocation();
  const form = useSubmit();
  const [unverified, setUnverified] = useState(null);
  const [resent, setResent] = useState(false);
  const [idp, setIdp] = useState(false);

  useEffect(() => {
    // The external login button shows only when the server has a provider configured.
    fetch('/api/auth/idp/redirect', { redirect: 'manual' })
      .then((r) => setIdp(r.type === 'opaqueredirect' || r.status === 302))
      .catch(() => {});
  }, []);

  async function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    setUnverified(null);
    const res = await form.run(() => api('/api/auth/login', { method: 'POST', body: { email: v.email, password: v.password } }));
    if (res) {
      signIn(res.data);
      route(query.next && query.next.startsWith('/') && !query.next.startsWith('//') ? query.next : homeOf(res.data.user));
    } else {
      setUnverified(v.email);
    }
  }

  async function resend() {
    await api('/api/auth/resend-verification', { method: 'POST', body: { email: unverified } }).catch(() => {});
    setResent(true);
  }

  return (
    <section class="narrow">
      <PageTitle>Entrar</PageTitle>
      <form class="card" onSubmit={submit}>
        <Alert>{form.error?.message}</Alert>
        {form.error?.code === 'EMAIL_NOT_VERIFIED' && unverified && (
          <p>
            {resent ? (
              <span role="status">Te enviamos un nuevo enlace de verificación. Revisa tu correo.</span>
            ) : (
              <button type="button" class="link-button" onClick={resend}>
                Enviar de nuevo el correo de verificación
              </button>
            )}
          </p>
        )}
        <Field label="Correo electrónico" name="email" type="email" autocomplete="email" required />
        <Field label="Contraseña" name="password" type="password" autocomplete="current-password" required />
        <button class="button" type="submit" disabled={form.busy}>
          {form.busy ? 'Entrando…' : 'Entrar'}
        </button>
        <p class="form-links">
          <a href="/forgot-password">¿Olvidaste tu contraseña?</a> · <a href="/register">Crear una cuenta</a>
        </p>
        {idp && (
          <p>
            <a class="button button-secondary" href="/api/auth/idp/redirect">
              Entrar con tu proveedor de identidad
            </a>
          </p>
        )}
      </form>
    </section>
  );
}

const ROLES = ['comprador', 'agency_admin', 'broker', 'developer', 'agent'];

export function Register() {
  const form = useSubmit();
  const [done, setDone] = useState(null);
  const [resent, setResent] = useState(false);

  async function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    if (!form.passwordLongEnough(v.password)) return;
    const body = {
      firstName: v.firstName,
      lastName: v.lastName,
      email: v.email,
      password: v.password,
      phone: v.phone || undefined,
      role: v.role,
      acceptedTerms: v.acceptedTerms === 'on',
    };
    const res = await form.run(() => api('/api/auth/register', { method: 'POST', body }));
    if (res) setDone(res);
  }

  if (done) {
    return (
      <section class="narrow">
        <PageTitle>Revisa tu correo</PageTitle>
        <div class="card" role="status">
          <p>{done.message}</p>
          <p>
            Enviamos un enlace de verificación a <strong>{done.email}</strong>. Ábrelo para activar tu cuenta y después{' '}
            <a href="/login">entra</a>.
          </p>
          {resent ? (
            <p>Te enviamos un nuevo enlace.</p>
          ) : (
            <button
              type="button"
              class="button button-secondary"
              onClick={async () => {
                await api('/api/auth/resend-verification', { method: 'POST', body: { email: done.email } }).catch(() => {});
                setResent(true);
              }}
            >
              No me llegó: enviar de nuevo
            </button>
          )}
        </div>
      </section>
    );
  }

  return (
    <section class="narrow">
      <PageTitle lead="Con tu cuenta guardas tus datos y contactas agentes.">Crear una cuenta</PageTitle>
      <form class="card" onSubmit={submit}>
        <Alert>{form.error && !form.error.field && form.error.code !== 'TERMS_NOT_ACCEPTED' ? form.error.message : null}</Alert>
        <div class="grid-2">
          <Field label="Nombre" name="firstName" autocomplete="given-name" required error={form.fieldError('firstName')} />
          <Field label="Apellidos" name="lastName" autocomplete="family-name" required error={form.fieldError('lastName')} />
        </div>
        <Field label="Correo electrónico" name="email" type="email" autocomplete="email" required error={form.fieldError('email')} />
        <Field
          label="Contraseña"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minLength={MIN_PASSWORD}
          help={`Al menos ${MIN_PASSWORD} caracteres. Una frase larga es fácil de recordar y difícil de adivinar.`}
          error={form.fieldError('password')}
        />
        <Field label="Teléfono" name="phone" type="tel" autocomplete="tel" help="Opcional." error={form.fieldError('phone')} />
        <Field label="¿Cómo usarás la plataforma?" name="role" as="select" required error={form.fieldError('role')}>
          {ROLES.map((r) => (
            <option value={r}>{ROLE_NAMES[r]}</option>
          ))}
        </Field>
        <div class={`check${form.error?.code === 'TERMS_NOT_ACCEPTED' ? ' has-error' : ''}`}>
          <input id="f-acceptedTerms" type="checkbox" name="acceptedTerms" aria-describedby={form.error?.code === 'TERMS_NOT_ACCEPTED' ? 'terms-error' : undefined} />
          <label for="f-acceptedTerms">
            Acepto los <a href="/terms" target="_blank" rel="noopener">Términos y Condiciones y el Aviso de Privacidad</a>
          </label>
        </div>
        {form.error?.code === 'TERMS_NOT_ACCEPTED' && (
          <p id="terms-error" class="field-error" role="alert">
            {form.error.message}
          </p>
        )}
        <button class="button" type="submit" disabled={form.busy}>
          {form.busy ? 'Creando…' : 'Crear cuenta'}
        </button>
        <p class="form-links">
          ¿Ya tienes cuenta? <a href="/login">Entra</a>
        </p>
      </form>
    </section>
  );
}

export function Terms() {
  return (
    <section class="narrow prose">
      <PageTitle>Términos y Condiciones y Aviso de Privacidad</PageTitle>
      <h2>Uso de la plataforma</h2>
      <p>
        La plataforma te ayuda a estimar tu capacidad de compra de vivienda y a contactar agentes inmobiliarios. El puntaje de
        precalificación es indicativo: no es una aprobación de crédito ni una oferta de ninguna institución financiera.
      </p>
      <h2>Tus datos</h2>
      <p>
        La calculadora hace el cálculo en tu navegador; tus datos financieros solo se guardan en el servidor cuando eliges
        guardar tu perfil. Tu correo y tu teléfono se comparten únicamente con el agente de una propiedad cuando indicas
        que te interesa.
      </p>
      <p>
        Las contraseñas se guardan cifradas con Argon2id y los enlaces de verificación y de restablecimiento son de un solo uso y
        caducan. Puedes cerrar tu sesión en cualquier momento desde «Mi cuenta».
      </p>
      <h2>Derechos ARCO</h2>
      <p>
        Puedes acceder, rectificar, cancelar u oponerte al uso de tus datos escribiendo a la inmobiliaria o al administrador de la
        plataforma.
      </p>
    </section>
  );
}

export function VerifyEmail() {
  const token = useOneTimeParam('token');
  const [state, setState] = useState({ status: token ? 'loading' : 'error', message: 'Token de verificación requerido' });

  useEffect(() => {
    if (!token) return;
    api(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)
      .then((res) => setState({ status: 'ok', message: res.message, user: res.user }))
      .catch((e) => setState({ status: 'error', message: e.message }));
  }, [token]);

  return (
    <section class="narrow">
      <PageTitle>Verificación de correo</PageTitle>
      <div class="card">
        {state.status === 'loading' && <Loading>Verificando tu correo…</Loading>}
        {state.status === 'ok' && (
          <div role="status">
            <p class="success">{state.message}.</p>
            <p>
              {state.user?.firstName ? `¡Listo, ${state.user.firstName}! ` : ''}Tu cuenta está activa.
            </p>
            <a class="button" href="/login">
              Entrar
            </a>
          </div>
        )}
        {state.status === 'error' && (
          <>
            <Alert>{state.message}</Alert>
            <p>
              Si el enlace caducó o ya lo usaste, <a href="/login">entra</a> con tu correo y contraseña para pedir uno nuevo.
            </p>
          </>
        )}
      </div>
    </section>
  );
}

export function ForgotPassword() {
  const form = useSubmit();
  const [message, setMessage] = useState(null);
  async function submit(e) {
    e.preventDefault();
    const { email } = formValues(e.currentTarget);
    const res = await form.run(() => api('/api/auth/forgot-password', { method: 'POST', body: { email } }));
    if (res) setMessage(res.message);
  }
  return (
    <section class="narrow">
      <PageTitle lead="Te enviaremos un enlace para elegir una contraseña nueva.">Restablecer contraseña</PageTitle>
      <form class="card" onSubmit={submit}>
        <Alert>{form.error?.message}</Alert>
        <Alert kind="success">{message}</Alert>
        <Field label="Correo electrónico" name="email" type="email" autocomplete="email" required />
        <button class="button" type="submit" disabled={form.busy}>
          Enviar enlace
        </button>
        <p class="form-links">
          <a href="/login">Volver a entrar</a>
        </p>
      </form>
    </section>
  );
}

export function ResetPassword() {
  const token = useOneTimeParam('token');
  const form = useSubmit();
  const [done, setDone] = useState(null);
  async function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    if (!form.passwordLongEnough(v.password)) return;
    if (v.password !== v.confirm) {
      form.setError(new ApiError(422, { field: 'confirm', message: 'Las contraseñas no coinciden.' }));
      return;
    }
    const res = await form.run(() => api('/api/auth/reset-password', { method: 'POST', body: { token, password: v.password } }));
    if (res) setDone(res.message);
  }
  if (!token) {
    return (
      <section class="narrow">
        <PageTitle>Nueva contraseña</PageTitle>
        <div class="card">
          <Alert>El enlace no es válido: falta el token. Pide uno nuevo.</Alert>
          <a href="/forgot-password">Pedir un enlace nuevo</a>
        </div>
      </section>
    );
  }
  return (
    <section class="narrow">
      <PageTitle>Nueva contraseña</PageTitle>
      {done ? (
        <div class="card" role="status">
          <p class="success">{done}</p>
          <p>Por seguridad cerramos tus sesiones abiertas.</p>
          <a class="button" href="/login">
            Entrar
          </a>
        </div>
      ) : (
        <form class="card" onSubmit={submit}>
          <Alert>{form.error && !['password', 'confirm'].includes(form.error.field) ? form.error.message : null}</Alert>
          {form.error?.code === 'RESET_TOKEN_INVALID' && (
            <p>
              <a href="/forgot-password">Pedir un enlace nuevo</a>
            </p>
          )}
          <Field
            label="Contraseña nueva"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minLength={MIN_PASSWORD}
            help={`Al menos ${MIN_PASSWORD} caracteres.`}
            error={form.fieldError('password')}
          />
          <Field label="Repite la contraseña" name="confirm" type="password" autocomplete="new-password" required error={form.fieldError('confirm')} />
          <button class="button" type="submit" disabled={form.busy}>
            Guardar contraseña
          </button>
        </form>
      )}
    </section>
  );
}

const IDP_ERRORS = {
  IDP_EMAIL_NOT_VERIFIED: 'Tu proveedor de identidad no confirma tu correo. Verifícalo allí o crea una cuenta con correo y contraseña.',
};

/** The page the server's IdP callback redirects to: exchanges the one-time code for a session. */
export function AuthCallback() {
  const code = useOneTimeParam('code');
  const { query, route } = useLocation();
  const { signIn } = useSession();
  const [error, setError] = useState(query.error ? IDP_ERRORS[query.error] ?? 'No se pudo completar el inicio de sesión con tu proveedor.' : null);

  useEffect(() => {
    if (!code || error) return;
    api('/api/auth/idp/exchange', { method: 'POST', body: { code } })
      .then((res) => {
        signIn(res.data);
        route(homeOf(res.data.user), true);
      })
      .catch((e) => setError(e.message));
  }, [code]);

  return (
    <section class="narrow">
      <PageTitle>Inicio de sesión</PageTitle>
      <div class="card">
        {error || !code ? (
          <>
            <Alert>{error ?? 'Falta el código de inicio de sesión.'}</Alert>
            <a href="/login">Volver a entrar</a>
          </>
        ) : (
          <Loading>Completando el inicio de sesión…</Loading>
        )}
      </div>
    </section>
  );
}

export function Account() {
  const { user, signOut, updateUser } = useSession();
  const { route } = useLocation();
  const [profile, setProfile] = useState(null);
  const form = useSubmit();
  const [saved, setSaved] = useState(null);

  useEffect(() => {
    if (!user) {
      route('/login?next=/account', true);
      return;
    }
    api('/api/auth/me')
      .then((r) => setProfile(r.data))
      .catch((e) => {
        if (e.status === 401) route('/login?next=/account', true);
        else form.setError(e);
      });
  }, [user]);

  async function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    setSaved(null);
    const res = await form.run(() =>
      api('/api/auth/profile', {
        method: 'PUT',
        body: { firstName: v.firstName, lastName: v.lastName, phone: v.phone || null, companyName: v.companyName || null },
      }),
    );
    if (res) {
      setProfile(res.data);
      updateUser({ firstName: res.data.firstName, lastName: res.data.lastName });
      setSaved(res.message);
    }
  }

  async function logout() {
    await signOut();
    route('/login', true);
  }

  if (!user) return null;
  return (
    <section class="narrow">
      <PageTitle>Mi cuenta</PageTitle>
      {!profile ? (
        <Loading />
      ) : (
        <form class="card" onSubmit={submit}>
          <p>
            <strong>{profile.email}</strong> · {ROLE_NAMES[profile.role] ?? profile.role}
          </p>
          <Alert>{form.error && !form.error.field ? form.error.message : null}</Alert>
          <Alert kind="success">{saved}</Alert>
          <div class="grid-2">
            <Field label="Nombre" name="firstName" defaultValue={profile.firstName} required error={form.fieldError('firstName')} />
            <Field label="Apellidos" name="lastName" defaultValue={profile.lastName} required error={form.fieldError('lastName')} />
          </div>
          <Field label="Teléfono" name="phone" type="tel" defaultValue={profile.phone ?? ''} error={form.fieldError('phone')} />
          <Field label="Empresa" name="companyName" defaultValue={profile.companyName ?? ''} error={form.fieldError('companyName')} />
          <div class="actions">
            <button class="button" type="submit" disabled={form.busy}>
              Guardar cambios
            </button>
            <button class="button button-secondary" type="button" onClick={logout}>
              Cerrar sesión
            </button>
          </div>
        </form>
      )}
      <MyProfiles />
    </section>
  );
}

/** The score profiles saved from this browser, reopenable by their link. */
export function MyProfiles() {
  const list = savedProfiles();
  if (!list.length) return null;
  return (
    <div class="card">
      <h2>Mis perfiles guardados</h2>
      <ul class="plain">
        {list.map((p) => (
          <li>
            <a href={`/profile/${p.id}`}>
              Puntaje {p.score} · {p.estado} · {new Date(p.savedAt).toLocaleDateString('es-MX')}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

const PROFILES_KEY = 'plataforma.perfiles';

export function savedProfiles() {
  try {
    return JSON.parse(localStorage.getItem(PROFILES_KEY) ?? '[]');
  } catch {
    return [];
  }
}

export function rememberProfile(entry) {
  const list = savedProfiles().filter((p) => p.id !== entry.id);
  list.unshift({ ...entry, savedAt: Date.now() });
  localStorage.setItem(PROFILES_KEY, JSON.stringify(list.slice(0, 10)));
}
