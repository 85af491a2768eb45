// One way to call the server: JSON in and out, the bearer token when signed in, and the
// server's error envelope ({code, message, field}, and a profile's every mistake in `errores`)
// turned into an ApiError whose message is already the Spanish text to show.

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? 'No se pudo completar la solicitud. Inténtalo de nuevo.');
    this.status = status;
    this.code = body?.code ?? 'NETWORK_ERROR';
    this.field = body?.field ?? null;
    this.errores = body?.errores ?? [];
    this.body = body ?? {};
  }
}

const TOKEN_KEY = 'plataforma.sesion';

/** The stored session ({token, expiresAt, user}) or null when absent or expired. */
export function loadSession() {
  try {
    const s = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? 'null');
    if (s && s.token && s.expiresAt > Date.now()) return s;
  } catch {
    /* a damaged entry counts as signed out */
  }
  localStorage.removeItem(TOKEN_KEY);
  return null;
}

/** Stores the session of a login response ({token, expiresIn, user}). */
export function saveSession(login) {
  return storeSession({
    token: login.token,
    expiresAt: Date.now() + (login.expiresIn ?? 3600) * 1000,
    user: login.user,
  });
}

export function storeSession(session) {
  localStorage.setItem(TOKEN_KEY, JSON.stringify(session));
  return session;
}

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * Calls the API; resolves to the parsed body, rejects with ApiError. `body` is sent as JSON,
 * or as multipart/form-data when it is a FormData (file uploads).
 */
export async function api(path, { method = 'GET', body, token } = {}) {
  const form = body instanceof FormData;
  const headers = { accept: 'application/json' };
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  const auth = token ?? loadSession()?.token;
  if (auth) headers.authorization = `Bearer ${auth}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined || form ? body : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { message: 'No hay conexión con el servidor. Revisa tu red e inténtalo de nuevo.' });
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && auth) clearSession();
    if (response.status === 429) {
      throw new ApiError(429, { ...data, message: 'Demasiados intentos seguidos. Espera un minuto e inténtalo de nuevo.' });
    }
    throw new ApiError(response.status, data);
  }
  return data;
}

/** Query string of the defined, non-empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
