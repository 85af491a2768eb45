// For offices: an agency_admin sees the agents of every office they manage (active and
// inactive), creates agents, edits them, moves them between their offices and deactivates
// or reactivates them.
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, query } from '../api.js';
import { Alert, Field, Loading, PageTitle, Pagination, formValues } from '../components/ui.jsx';
import { useSession } from '../session.jsx';
import { CATEGORIES } from './agents.jsx';

const MANAGERS = ['agency_admin', 'admin'];

export function Office() {
  const { user } = useSession();
  const { query: q, path, route } = useLocation();
  const page = Number(q.page) || 1;
  // The list shown belongs to the page in the address (after an action the same page is
  // shown until its refreshed copy arrives).
  const request = `/api/agencies/current/agents${query({ page, limit: 20 })}`;
  const [loaded, setLoaded] = useState({ request: null, data: null });
  const data = loaded.request === request ? loaded.data : null;
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  const [version, setVersion] = useState(0);

  const offices = useManagedOffices(user, version);

  useEffect(() => {
    if (!user) {
      route('/login?next=/office', true);
      return;
    }
    if (!MANAGERS.includes(user.role)) return;
    api(request)
      .then((r) => setLoaded({ request, data: r.data }))
      .catch(setError);
  }, [user, request, version]);

  if (!user) return null;
  if (!MANAGERS.includes(user.role)) {
    return (
      <section>
        <PageTitle>Mi oficina</PageTitle>
        <Alert>Esta sección es para administradores de inmobiliarias.</Alert>
      </section>
    );
  }
  const reload = (message) => {
    setNotice(message);
    setVersion((v) => v + 1);
  };

  return (
    <section>
      <PageTitle lead="Los agentes de todas las oficinas que administras.">Mi oficina</PageTitle>
      <Alert kind="success">{notice}</Alert>
      <Alert>{error?.message}</Alert>
      <CreateAgent offices={offices} onCreated={reload} />
      {!data && !error && <Loading>Cargando agentes…</Loading>}
      {data && (
        <>
          <p class="help" role="status" data-testid="office-total" data-total={data.pagination.total}>
            {data.pagination.total} {data.pagination.total === 1 ? 'agente' : 'agentes'} en {offices.length}{' '}
            {offices.length === 1 ? 'oficina' : 'oficinas'}
          </p>
          <ul class="plain office-agents">
            {data.agents.map((a) => (
              <OfficeAgent key={a.id} agent={a} offices={offices} onChanged={reload} />
            ))}
          </ul>
          <Pagination pagination={data.pagination} hrefOf={(p) => `${path}${query({ page: p > 1 ? p : undefined })}`} label="Páginas de agentes" />
        </>
      )}
    </section>
  );
}

/**
 * The offices the user manages: every office they own or co-administer (`managedAgencies`,
 * offices without agents included) and, for the platform admin, the offices of the agents they
 * see. Reads the list in pages of 100, up to 2,000 agents.
 */
function useManagedOffices(user, version) {
  const [offices, setOffices] = useState([]);
  useEffect(() => {
    if (!user || !MANAGERS.includes(user.role)) return;
    let cancelled = false;
    (async () => {
      const seen = new Map();
      for (let page = 1; page <= 20; page++) {
        const r = await api(`/api/agencies/current/agents${query({ page, limit: 100 })}`);
        for (const a of [...r.data.managedAgencies, ...r.data.agencies]) seen.set(a.id, a);
        if (page >= r.data.pagination.lastPage) break;
      }
      if (!cancelled) setOffices([...seen.values()].sort((a, b) => a.name.localeCompare(b.name, 'es')));
    })().catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [user, version]);
  return offices;
}

function ProfileFields({ agent = {}, prefix }) {
  return (
    <>
      <div class="grid-2">
        <Field label="Ciudad" name="city" id={`${prefix}-city`} defaultValue={agent.city ?? ''} />
        <Field label="Especialidad" name="category" id={`${prefix}-category`} as="select" defaultValue={agent.category ?? ''}>
          <option value="">Sin especificar</option>
          {CATEGORIES.map((c) => (
            <option value={c}>{c}</option>
          ))}
        </Field>
      </div>
      <Field label="Clave interna del agente" name="externalId" id={`${prefix}-externalId`} defaultValue={agent.externalId ?? ''} help="La clave de tu inmobiliaria; única en la plataforma." />
    </>
  );
}

function CreateAgent({ offices, onCreated }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);

  async function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    setBusy(true);
    setError(null);
    const body = {
      firstName: v.firstName,
      lastName: v.lastName,
      email: v.email,
      password: v.password,
      phone: v.phone || undefined,
      city: v.city || undefined,
      category: v.category || undefined,
      externalId: v.externalId || undefined,
    };
    try {
      const url = v.agencyId ? `/api/agencies/${encodeURIComponent(v.agencyId)}/agents` : '/api/agencies/current/agents';
      const r = await api(url, { method: 'POST', body });
      setFormKey((k) => k + 1);
      onCreated(`Agente creado: ${r.data.user.firstName} ${r.data.user.lastName}${r.data.agency ? ` en ${r.data.agency.name}` : ''}. Ya puede entrar con la contraseña que elegiste.`);
    } catch (err) {
      setError(err.code === 'AGENCY_AMBIGUOUS' ? new Error('Administras varias oficinas: elige en cuál crear al agente.') : err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details class="card">
      <summary>Crear un agente</summary>
      <form key={formKey} onSubmit={submit} data-testid="create-agent">
        <div class="grid-2">
          <Field label="Nombre" name="firstName" id="new-firstName" required error={error?.field === 'firstName' ? error.message : undefined} />
          <Field label="Apellidos" name="lastName" id="new-lastName" required error={error?.field === 'lastName' ? error.message : undefined} />
        </div>
        <div class="grid-2">
          <Field label="Correo electrónico" name="email" id="new-email" type="email" required autocomplete="off" />
          <Field label="Contraseña inicial" name="password" id="new-password" type="password" required minLength={12} autocomplete="new-password" help="Al menos 12 caracteres; compártela con el agente por un canal seguro." />
        </div>
        <Field label="Teléfono" name="phone" id="new-phone" type="tel" />
        <ProfileFields prefix="new" />
        {offices.length > 0 && (
          <Field label="Oficina" name="agencyId" id="new-agencyId" as="select">
            {offices.map((o) => (
              <option value={o.id}>{o.name}</option>
            ))}
          </Field>
        )}
        <Alert>{error && !['firstName', 'lastName'].includes(error.field) ? error.message : null}</Alert>
        <button class="button" type="submit" disabled={busy}>
          Crear agente
        </button>
      </form>
    </details>
  );
}

function OfficeAgent({ agent, offices, onChanged }) {
  const [editing, setEditing] = useState(null);
  const [error, setError] = useState(null);
  const office = offices.find((o) => o.id === agent.agencyId);

  async function act(fn, message) {
    setError(null);
    try {
      await fn();
      setEditing(null);
      onChanged(message);
    } catch (e) {
      setError(e);
    }
  }

  async function openEditor() {
    setError(null);
    try {
      const r = await api(`/api/agents/${agent.id}?limit=1`);
      setEditing(r.data.agent);
    } catch (e) {
      setError(e);
    }
  }

  function saveEdit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const body = { firstName: v.firstName, lastName: v.lastName, phone: v.phone || null, city: v.city || null, category: v.category || null, externalId: v.externalId || null };
    act(() => api(`/api/agents/${agent.id}`, { method: 'PUT', body }), `Cambios guardados para ${v.firstName} ${v.lastName}.`);
  }

  function assign(e) {
    e.preventDefault();
    const { agencyId } = formValues(e.currentTarget);
    const target = offices.find((o) => o.id === agencyId);
    act(() => api(`/api/agents/${agent.id}/assign-agency`, { method: 'PUT', body: { agencyId } }), `${agent.name} ahora está en ${target?.name ?? 'la oficina elegida'}.`);
  }

  const toggle = () =>
    act(
      () => api(`/api/agents/${agent.id}`, { method: 'PUT', body: { isActive: !agent.isActive } }),
      agent.isActive ? `${agent.name} quedó desactivado: ya no aparece en el directorio.` : `${agent.name} está activo de nuevo.`,
    );

  return (
    <li class={`card office-agent${agent.isActive ? '' : ' inactive'}`} data-agent={agent.id} data-email={agent.email}>
      <div class="office-agent-head">
        <div>
          <h2>
            <a href={`/agents/${agent.id}`}>{agent.name}</a>
          </h2>
          <p class="muted">{agent.email}</p>
          <p>
            <span data-testid="agent-office">{office?.name ?? 'Sin oficina'}</span> · {[agent.category, agent.city].filter(Boolean).join(' · ') || 'Perfil sin completar'} ·{' '}
            {agent.propertiesCount} {agent.propertiesCount === 1 ? 'propiedad' : 'propiedades'}
          </p>
          <p>
            <span class={`badge${agent.isActive ? '' : ' badge-muted'}`}>{agent.isActive ? 'Activo' : 'Inactivo'}</span>
          </p>
        </div>
        <div class="actions">
          <button type="button" class="button button-secondary" onClick={openEditor} aria-expanded={editing ? 'true' : 'false'}>
            Editar
          </button>
          <button type="button" class="button button-secondary" onClick={toggle}>
            {agent.isActive ? 'Desactivar' : 'Activar'}
          </button>
        </div>
      </div>
      {offices.length > 1 && (
        <form class="inline-form" onSubmit={assign}>
          <Field label={`Oficina de ${agent.name}`} name="agencyId" id={`assign-${agent.id}`} as="select" defaultValue={agent.agencyId ?? ''}>
            {offices.map((o) => (
              <option value={o.id}>{o.name}</option>
            ))}
          </Field>
          <button type="submit" class="button button-secondary">
            Cambiar de oficina
          </button>
        </form>
      )}
      <Alert>{error?.message}</Alert>
      {editing && (
        <form class="editor" onSubmit={saveEdit}>
          <div class="grid-2">
            <Field label="Nombre" name="firstName" id={`e-${agent.id}-firstName`} defaultValue={editing.user.firstName} required />
            <Field label="Apellidos" name="lastName" id={`e-${agent.id}-lastName`} defaultValue={editing.user.lastName} required />
          </div>
          <Field label="Teléfono" name="phone" id={`e-${agent.id}-phone`} type="tel" defaultValue={editing.user.phone ?? ''} />
          <ProfileFields agent={editing} prefix={`e-${agent.id}`} />
          <div class="actions">
            <button class="button" type="submit">
              Guardar
            </button>
            <button class="button button-secondary" type="button" onClick={() => setEditing(null)}>
              Cancelar
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
