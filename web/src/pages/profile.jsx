// A saved buyer profile (reopenable by its link): the stored report, its verification by
// payroll receipts when the buyer sent them, printed receipts and bank statements read on the
// server, the compatible
// properties with their reasons, and "me interesa", which records the interest (phase 3) and
// shares the buyer's contact with that property's agent.
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, query } from '../api.js';
import { Alert, Field, Loading, PageTitle, Pagination, formValues, pesos, decimal } from '../components/ui.jsx';
import { Report } from '../components/report.jsx';
import { rememberProfile } from './accounts.jsx';
import { VerificationSummary } from '../components/receipts.jsx';
import { PrintedDocumentsCard } from '../components/documents.jsx';

const OPERATIONS = [
  ['', 'Todas'],
  ['sale', 'En venta'],
  ['rent', 'En renta'],
];

export function Profile() {
  const { params } = useRoute();
  const { query: q, path } = useLocation();
  const [perfil, setPerfil] = useState(null);
  const [error, setError] = useState(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    setPerfil(null);
    api(`/api/v1/perfil/${encodeURIComponent(params.id)}`)
      .then((r) => {
        setPerfil(r.data);
        rememberProfile({ id: r.data.id, score: r.data.platform_score.score, estado: r.data.perfil.estado });
      })
      .catch(setError);
  }, [params.id]);

  if (error) {
    return (
      <section>
        <PageTitle>Perfil no disponible</PageTitle>
        <Alert>{error.message}</Alert>
        <a href="/calculator">Calcular un perfil nuevo</a>
      </section>
    );
  }
  if (!perfil) return <Loading>Cargando tu perfil…</Loading>;

  const link = `${location.origin}/profile/${perfil.id}`;
  return (
    <section>
      <PageTitle lead={`Guardado el ${new Date(perfil.created_at).toLocaleDateString('es-MX')} · modelo ${perfil.modelo_version}`}>
        {perfil.contacto?.nombre ? `Perfil de ${perfil.contacto.nombre}` : 'Tu perfil'}
      </PageTitle>
      <div class="card share">
        <p>
          Guarda este enlace para volver a tu perfil: <a href={`/profile/${perfil.id}`} data-testid="profile-link">{link}</a>
        </p>
        <button
          type="button"
          class="button button-secondary"
          onClick={() => navigator.clipboard?.writeText(link).then(() => setCopied(true), () => {})}
        >
          {copied ? 'Enlace copiado' : 'Copiar enlace'}
        </button>
      </div>
      <VerificationSummary verificacion={perfil.verificacion} />
      <PrintedDocumentsCard perfil={perfil} onChanged={setPerfil} />
      <div class="layout">
        <div class="card">
          <h2>Tu reporte</h2>
          <Report report={perfil.platform_score} />
        </div>
        <Matches perfil={perfil} operation={q.operation ?? ''} page={Number(q.page) || 1} path={path} />
      </div>
    </section>
  );
}

function Matches({ perfil, operation, page, path }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setData(null);
    api(`/api/v1/matching/${perfil.id}${query({ operation, page, limit: 10 })}`)
      .then((r) => setData(r.data))
      .catch(setError);
  }, [perfil.id, operation, page]);
  const hrefOf = (p, op = operation) => `${path}${query({ operation: op, page: p > 1 ? p : undefined })}`;

  return (
    <div class="card">
      <h2>Propiedades compatibles</h2>
      <nav class="tabs" aria-label="Tipo de operación">
        {OPERATIONS.map(([op, label]) => (
          <a href={hrefOf(1, op)} aria-current={op === operation ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      {data && (
        <p class="help">
          Hasta {pesos.format(data.criterios.precio_max_venta)} en venta o {pesos.format(data.criterios.renta_max_mensual)} al mes en renta, en tu
          estado.
        </p>
      )}
      <Alert>{error?.message}</Alert>
      {!data && !error && <Loading>Buscando propiedades…</Loading>}
      {data && data.propiedades.length === 0 && <p>No encontramos propiedades a tu alcance en tu estado por ahora.</p>}
      {data && (
        <ul class="plain matches">
          {data.propiedades.map((m) => (
            <MatchCard perfil={perfil} match={m} />
          ))}
        </ul>
      )}
      {data && <Pagination pagination={data.pagination} hrefOf={hrefOf} label="Páginas de propiedades" />}
    </div>
  );
}

function MatchCard({ perfil, match }) {
  const p = match.propiedad;
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const needsContact = error?.code === 'CONTACT_REQUIRED' || (!perfil.contacto?.email_registrado && !perfil.contacto?.telefono_registrado);

  async function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const body = { propiedad_id: p.id, mensaje: v.mensaje || undefined, preferencia_contacto: v.preferencia_contacto };
      if (v.email) body.email = v.email;
      if (v.telefono) body.telefono = v.telefono;
      const r = await api(`/api/v1/fase3/documentar/${perfil.id}`, { method: 'POST', body });
      setDone(r.data);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const titleId = `prop-${p.id}`;
  return (
    <li class="match" aria-labelledby={titleId} data-property={p.id}>
      <div class="match-head">
        <h3 id={titleId}>{p.title}</h3>
        <span class="badge" title="Qué tan bien se ajusta a tu perfil (0 a 100)">Ajuste {match.ajuste}</span>
      </div>
      <p class="price">
        {pesos.format(p.price)}
        {p.operation === 'rent' ? ' al mes' : ''} · {p.operation === 'rent' ? 'Renta' : 'Venta'} · {decimal.format(p.m2)} m²
        {p.bedrooms != null && ` · ${p.bedrooms} recámaras`} · {p.city}, {p.estadoNombre}
      </p>
      <ul class="reasons">
        {match.motivos.map((r) => (
          <li class="ok" data-codigo={r.codigo}>
            {r.texto}
          </li>
        ))}
        {match.advertencias.map((r) => (
          <li class="warn" data-codigo={r.codigo}>
            {r.texto}
          </li>
        ))}
      </ul>
      {done ? (
        <p class="success" role="status" data-testid="interest-recorded">
          ¡Listo! Registramos tu interés. {done.agente?.nombre ?? 'El agente'} recibió tus datos y te contactará.
        </p>
      ) : open ? (
        <form class="interest" onSubmit={submit}>
          <Field label="Mensaje para el agente" name="mensaje" as="textarea" rows={3} maxLength={1000} id={`msg-${p.id}`} help="Opcional, hasta 1,000 caracteres." />
          <Field label="¿Cómo prefieres que te contacten?" name="preferencia_contacto" as="select" id={`pref-${p.id}`}>
            <option value="email">Correo electrónico</option>
            <option value="telefono">Teléfono</option>
            <option value="whatsapp">WhatsApp</option>
          </Field>
          {needsContact && (
            <>
              <Field label="Correo electrónico" name="email" type="email" autocomplete="email" id={`email-${p.id}`} />
              <Field label="Teléfono" name="telefono" type="tel" autocomplete="tel" id={`tel-${p.id}`} />
            </>
          )}
          <Alert>{error?.message}</Alert>
          <div class="actions">
            <button class="button" type="submit" disabled={busy}>
              Enviar mi interés
            </button>
            <button class="button button-secondary" type="button" onClick={() => setOpen(false)}>
              Cancelar
            </button>
          </div>
        </form>
      ) : (
        <div class="actions">
          <button class="button" type="button" onClick={() => setOpen(true)}>
            Me interesa
          </button>
          {p.agentId && <a href={`/agents/${p.agentId}`}>Ver al agente</a>}
        </div>
      )}
    </li>
  );
}
