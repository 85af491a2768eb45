// An agent's public page: profile, contact, properties (all, for sale, for rent; paged) and
// the latest reviews.
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, query } from '../api.js';
import { Alert, Loading, PageTitle, Pagination, decimal, pesos } from '../components/ui.jsx';
import { Avatar } from '../components/avatar.jsx';

const TYPES = [
  ['', 'Todas'],
  ['sale', 'En venta'],
  ['rent', 'En renta'],
];

const SOCIAL = { facebook: 'Facebook', instagram: 'Instagram', linkedin: 'LinkedIn', twitter: 'X (Twitter)' };

export function Agent() {
  const { params } = useRoute();
  const { query: q, path } = useLocation();
  const type = q.type ?? '';
  const page = Number(q.page) || 1;
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    setError(null);
    api(`/api/agents/${encodeURIComponent(params.id)}${query({ type, page, limit: 6 })}`)
      .then((r) => setData(r.data))
      .catch(setError);
  }, [params.id, type, page]);

  if (error && !data) {
    return (
      <section>
        <PageTitle>Agente no encontrado</PageTitle>
        <Alert>{error.message}</Alert>
        <a href="/agents">Volver al directorio</a>
      </section>
    );
  }
  if (!data) return <Loading>Cargando al agente…</Loading>;
  const { agent, properties, pagination, propertiesCount, reviews } = data;
  const name = `${agent.user.firstName} ${agent.user.lastName}`;
  const hrefOf = (p, t = type) => `${path}${query({ type: t, page: p > 1 ? p : undefined })}`;
  const counts = { '': propertiesCount.total, sale: propertiesCount.forSale, rent: propertiesCount.forRent };
  const phones = [
    ['Teléfono', agent.user.phone ?? agent.phone1],
    ['Móvil', agent.mobilePhone],
    ['Oficina', agent.officePhone],
  ].filter(([, v]) => v);

  return (
    <section>
      <p>
        <a href="/agents">← Directorio de agentes</a>
      </p>
      <div class="agent-header">
        <Avatar name={name} src={agent.image} size={96} />
        <div>
          <PageTitle>{name}</PageTitle>
          <p>{[agent.category, agent.city].filter(Boolean).join(' · ')}</p>
          <p class="muted">{agent.agency?.name ?? agent.company ?? 'Independiente'}</p>
          <p>
            ★ {Number(agent.rating).toFixed(1)} de 5 · {agent.reviewsCount} {agent.reviewsCount === 1 ? 'reseña' : 'reseñas'}
            {!agent.isActive && <span class="badge badge-muted">No disponible</span>}
          </p>
        </div>
      </div>
      <div class="layout">
        <div>
          {agent.bio && (
            <div class="card">
              <h2>Acerca de</h2>
              <p>{agent.bio}</p>
              {agent.memberSince && <p class="muted">En el sector desde {new Date(`${agent.memberSince}T12:00:00`).getFullYear()}</p>}
            </div>
          )}
          <div class="card">
            <h2>Propiedades</h2>
            <nav class="tabs" aria-label="Tipo de operación">
              {TYPES.map(([t, label]) => (
                <a href={hrefOf(1, t)} aria-current={t === type ? 'page' : undefined}>
                  {label} ({counts[t]})
                </a>
              ))}
            </nav>
            {properties.length === 0 && <p>Sin propiedades en esta categoría.</p>}
            <ul class="plain properties">
              {properties.map((p) => (
                <li class="property" data-operation={p.operation}>
                  <h3>{p.title}</h3>
                  <p class="price">
                    {pesos.format(p.price)}
                    {p.operation === 'rent' ? ' al mes' : ''} · {p.operation === 'rent' ? 'Renta' : 'Venta'}
                  </p>
                  <p class="muted">
                    {decimal.format(p.m2)} m²{p.bedrooms != null && ` · ${p.bedrooms} recámaras`}
                    {p.bathrooms != null && ` · ${p.bathrooms} baños`} · {p.city}, {p.estadoNombre}
                  </p>
                </li>
              ))}
            </ul>
            <Pagination pagination={pagination} hrefOf={hrefOf} label="Páginas de propiedades" />
          </div>
        </div>
        <div>
          <div class="card contact">
            <h2>Contacto</h2>
            <dl>
              {agent.user.email && (
                <div>
                  <dt>Correo</dt>
                  <dd>
                    <a href={`mailto:${agent.user.email}`}>{agent.user.email}</a>
                  </dd>
                </div>
              )}
              {phones.map(([label, v]) => (
                <div>
                  <dt>{label}</dt>
                  <dd>
                    <a href={`tel:${v.replace(/[^\d+]/g, '')}`}>{v}</a>
                  </dd>
                </div>
              ))}
              {agent.brokerAddress && (
                <div>
                  <dt>Dirección</dt>
                  <dd>{agent.brokerAddress}</dd>
                </div>
              )}
              {agent.website && (
                <div>
                  <dt>Sitio web</dt>
                  <dd>
                    <a href={agent.website} rel="noopener noreferrer nofollow" target="_blank">
                      {agent.website.replace(/^https?:\/\//, '')}
                    </a>
                  </dd>
                </div>
              )}
            </dl>
            {agent.socialMedia && (
              <ul class="plain social">
                {Object.entries(SOCIAL)
                  .filter(([k]) => agent.socialMedia[k])
                  .map(([k, label]) => (
                    <li>
                      <a href={agent.socialMedia[k]} rel="noopener noreferrer nofollow" target="_blank">
                        {label}
                      </a>
                    </li>
                  ))}
              </ul>
            )}
          </div>
          <div class="card">
            <h2>Reseñas</h2>
            {reviews.length === 0 && <p>Todavía no tiene reseñas.</p>}
            <ul class="plain reviews">
              {reviews.map((r) => (
                <li>
                  <p>
                    <span aria-label={`${r.rating} de 5 estrellas`}>{'★'.repeat(r.rating)}{'☆'.repeat(5 - r.rating)}</span> · {r.author} ·{' '}
                    {new Date(r.createdAt).toLocaleDateString('es-MX')}
                  </p>
                  {r.comment && <p>{r.comment}</p>}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}
