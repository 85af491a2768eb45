// The public agent directory: search by name or company, filters by city and category, and
// pages; the filters live in the address (shareable, back button works).
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, query } from '../api.js';
import { Alert, Loading, PageTitle, Pagination, formValues } from '../components/ui.jsx';
import { Avatar } from '../components/avatar.jsx';

export const CATEGORIES = ['Residencial', 'Comercial', 'Industrial', 'Terrenos', 'Lujo'];
const PER_PAGE = 12;

export function Agents() {
  const { query: q, route, path } = useLocation();
  const filters = { search: q.search ?? '', city: q.city ?? '', category: q.category ?? '' };
  const page = Number(q.page) || 1;
  // The list shown belongs to the current address: while a new search loads, the previous
  // results are not shown as if they were its answer.
  const request = `/api/agents${query({ ...filters, page, limit: PER_PAGE })}`;
  const [loaded, setLoaded] = useState({ request: null, data: null });
  const data = loaded.request === request ? loaded.data : null;
  const [error, setError] = useState(null);

  useEffect(() => {
    setError(null);
    api(request)
      .then((r) => setLoaded({ request, data: r.data }))
      .catch(setError);
  }, [request]);

  function submit(e) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    route(`${path}${query({ search: v.search, city: v.city, category: v.category })}`);
  }

  const agencies = Object.fromEntries((data?.agencies ?? []).map((a) => [a.id, a]));
  return (
    <section>
      <PageTitle lead="Busca por nombre o inmobiliaria y filtra por ciudad y especialidad.">Agentes inmobiliarios</PageTitle>
      <form class="card filters" role="search" onSubmit={submit} key={`${filters.search}|${filters.city}|${filters.category}`}>
        <div class="field">
          <label for="search">Nombre o inmobiliaria</label>
          <input id="search" name="search" type="search" defaultValue={filters.search} maxLength={100} />
        </div>
        <div class="field">
          <label for="city">Ciudad</label>
          <input id="city" name="city" defaultValue={filters.city} autocomplete="address-level2" />
        </div>
        <div class="field">
          <label for="category">Especialidad</label>
          <select id="category" name="category" defaultValue={filters.category}>
            <option value="">Todas</option>
            {CATEGORIES.map((c) => (
              <option value={c}>{c}</option>
            ))}
          </select>
        </div>
        <button class="button" type="submit">
          Buscar
        </button>
      </form>
      <Alert>{error?.message}</Alert>
      {!data && !error && <Loading>Cargando agentes…</Loading>}
      {data && (
        <>
          <p class="help" role="status" data-testid="agents-total">
            {data.pagination.total === 0
              ? 'Ningún agente coincide con tu búsqueda.'
              : `${data.pagination.total} ${data.pagination.total === 1 ? 'agente encontrado' : 'agentes encontrados'}`}
          </p>
          <ul class="plain agent-grid">
            {data.agents.map((a) => (
              <li class="card agent-card" data-agent={a.id}>
                <Avatar name={a.name} src={a.image} />
                <div>
                  <h2>
                    <a href={`/agents/${a.id}`}>{a.name}</a>
                  </h2>
                  <p>{[a.category, a.city].filter(Boolean).join(' · ')}</p>
                  <p class="muted">{agencies[a.agencyId]?.name ?? a.company ?? 'Independiente'}</p>
                  <p>
                    <span aria-label={`Calificación ${a.rating} de 5`}>★ {Number(a.rating).toFixed(1)}</span> · {a.propertiesCount}{' '}
                    {a.propertiesCount === 1 ? 'propiedad' : 'propiedades'}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <Pagination pagination={data.pagination} hrefOf={(p) => `${path}${query({ ...filters, page: p > 1 ? p : undefined })}`} label="Páginas de agentes" />
        </>
      )}
    </section>
  );
}
