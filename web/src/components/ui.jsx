// Small building blocks every page uses: labelled fields with their error, alerts, paging
// and the page title (which also moves focus for screen-reader users on navigation).
import { useEffect, useRef } from 'preact/hooks';


/**
 * A labelled input, select or textarea with help text and its error, wired with ARIA. `note`
 * ({verified, text}) says what the buyer's payroll receipts prove about the field.
 */
export function Field({ label, name, error, help, note, as = 'input', children, required, ...props }) {
  const id = props.id ?? `f-${name}`;
  const describedBy = [help && `${id}-ayuda`, note && `${id}-recibos`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const Tag = as;
  return (
    <div class={`field${error ? ' has-error' : ''}${note?.verified ? ' is-verified' : ''}`}>
      <label for={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
        {note?.verified && <span class="badge badge-verified">Verificado</span>}
      </label>
      <Tag id={id} name={name} required={required} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy} {...props}>
        {children}
      </Tag>
      {help && <small id={`${id}-ayuda`}>{help}</small>}
      {note && (
        <small id={`${id}-recibos`} class={note.verified ? 'note-verified' : 'note-receipts'} data-testid={`note-${name}`}>
          {note.text}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function Alert({ kind = 'error', children, id }) {
  if (!children) return null;
  return (
    <div id={id} class={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** The page's heading; focused after navigation so screen readers announce the new page. */
export function PageTitle({ children, lead }) {
  const ref = useRef(null);
  useEffect(() => {
    document.title = `${typeof children === 'string' ? children : 'Plataforma'} · Plataforma inmobiliaria`;
    ref.current?.focus({ preventScroll: true });
  }, [children]);
  return (
    <header class="page-title">
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {lead && <p class="lead">{lead}</p>}
    </header>
  );
}

/** Previous / next links and "page x of y" for the API's pagination object. */
export function Pagination({ pagination, hrefOf, label = 'Paginación' }) {
  if (!pagination || pagination.lastPage <= 1) return null;
  const { currentPage, lastPage, total } = pagination;
  return (
    <nav class="pagination" aria-label={label}>
      {currentPage > 1 ? (
        <a href={hrefOf(currentPage - 1)} rel="prev">
          ← Anterior
        </a>
      ) : (
        <span class="disabled" aria-hidden="true">← Anterior</span>
      )}
      <span aria-current="page">
        Página {currentPage} de {lastPage} ({total} en total)
      </span>
      {currentPage < lastPage ? (
        <a href={hrefOf(currentPage + 1)} rel="next">
          Siguiente →
        </a>
      ) : (
        <span class="disabled" aria-hidden="true">Siguiente →</span>
      )}
    </nav>
  );
}

export function Loading({ children = 'Cargando…' }) {
  return (
    <p class="loading" role="status">
      {children}
    </p>
  );
}

export const pesos = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 });
export const decimal = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 });
export const percent = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 1 });

/** Form values as an object of trimmed strings. */
export function formValues(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) out[k] = typeof v === 'string' ? v.trim() : v;
  return out;
}

