// The signed-in user, shared by every page. The access token lives in localStorage (so the
// e-mail links, which open a new tab, find the session) until it expires (1 h, no refresh
// token); the strict Content-Security-Policy is what keeps other scripts away from it.
import { createContext } from 'preact';
import { useContext, useState, useCallback } from 'preact/hooks';
import { api, clearSession, loadSession, saveSession, storeSession } from './api.js';

const SessionContext = createContext(null);

export function SessionProvider({ children }) {
  const [session, setSession] = useState(loadSession);
  const signIn = useCallback((login) => setSession(saveSession(login)), []);
  const signOut = useCallback(async () => {
    try {
      await api('/api/auth/logout', { method: 'POST' });
    } catch {
      /* the token may already be invalid; the local session goes anyway */
    }
    clearSession();
    setSession(null);
  }, []);
  const updateUser = useCallback((user) => {
    setSession((s) => {
      if (!s) return s;
      return storeSession({ ...s, user: { ...s.user, ...user } });
    });
  }, []);
  return (
    <SessionContext.Provider value={{ session, user: session?.user ?? null, signIn, signOut, updateUser }}>
      {children}
    </SessionContext.Provider>
  );
}

export function useSession() {
  return useContext(SessionContext);
}

export const ROLE_NAMES = {
  comprador: 'Comprador',
  agent: 'Agente',
  agency_admin: 'Administrador de inmobiliaria',
  broker: 'Corredor independiente',
  developer: 'Desarrollador',
  admin: 'Administrador de la plataforma',
};

/** Where a user lands after signing in. */
export function homeOf(user) {
  if (!user) return '/';
  if (user.role === 'agent') return '/leads';
  if (user.role === 'agency_admin' || user.role === 'admin') return '/office';
  return '/calculator';
}
