// An agent's leads: the buyers who said "me interesa" in one of the agent's properties, with
// the contact they agreed to share and their score.
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, query } from '../api.js';
import { Alert, Loading, PageTitle, Pagination, pesos } from '../components/ui.jsx';
import { nivelName } from '../components/report.jsx';
import { useSession } from '../session.jsx';

const PREFERENCES = { email: 'correo electrónico', telefono: 'teléfono', whatsapp: 'WhatsApp' };

export function Leads() {
  const { user } = useSession();
  const { query: q, path, route } = useLocation();
  const page = Number(q.page) || 1;
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    if (!user) {
      route('/login?next=/leads', true);
      return;
    }
    if (user.role !== 'agent') return;
    api(`/api/agent/leads${query({ page, limit: 10 })}`)
      .then((r) => setData(r.data))
      .catch(setError);
  }, [user, page]);

  if (!user) return null;
  if (user.role !== 'agent') {
    return (
      <section>
        <PageTitle>Mis prospectos</PageTitle>
        <Alert>Esta sección es para agentes.</Alert>
      </section>
    );
  }
  return (
    <section>
      <PageTitle lead="Compradores que se interesaron en tus propiedades y aceptaron compartir su contacto contigo.">Mis prospectos</PageTitle>
      <Alert>{error?.message}</Alert>
      {!data && !error && <Loading>Cargando prospectos…</Loading>}
      {data && data.leads.length === 0 && <p>Todavía no tienes prospectos.</p>}
      {data && (
        <ul class="plain leads">
          {data.leads.map((l) => (
            <li class="card lead" data-lead={l.id}>
              <h2>{l.buyer.name ?? 'Comprador'}</h2>
              <p>
                Interesado en <strong>{l.property.title}</strong> ({pesos.format(l.property.price)}
                {l.property.operation === 'rent' ? ' al mes' : ''}, {l.property.city})
              </p>
              <p>
                Puntaje {l.buyer.score} · {nivelName(l.buyer.nivel)}
                {l.buyer.valor_realista != null && ` · puede comprar hasta ${pesos.format(l.buyer.valor_realista)}`}
              </p>
              <dl class="inline-dl">
                {l.buyer.email && (
                  <div>
                    <dt>Correo</dt>
                    <dd>
                      <a href={`mailto:${l.buyer.email}`}>{l.buyer.email}</a>
                    </dd>
                  </div>
                )}
                {l.buyer.phone && (
                  <div>
                    <dt>Teléfono</dt>
                    <dd>
                      <a href={`tel:${l.buyer.phone.replace(/[^\d+]/g, '')}`}>{l.buyer.phone}</a>
                    </dd>
                  </div>
                )}
                <div>
                  <dt>Prefiere</dt>
                  <dd>{PREFERENCES[l.contactPreference] ?? l.contactPreference}</dd>
                </div>
              </dl>
              {l.message && <blockquote>{l.message}</blockquote>}
              <p class="muted">{new Date(l.updatedAt).toLocaleString('es-MX')}</p>
            </li>
          ))}
        </ul>
      )}
      {data && <Pagination pagination={data.pagination} hrefOf={(p) => `${path}${query({ page: p > 1 ? p : undefined })}`} label="Páginas de prospectos" />}
    </section>
  );
}
