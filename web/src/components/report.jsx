// The score report (score-core's `platform_score`): gauge, components, purchasing capacity,
// recommendations, and the verdict, credit products and what-if blocks when the report has
// them (later model calibrations add `dictamen`, `productos`, `simulaciones`).
// The report's words are score-wasm's page's too: defined once, in its labels module.
import { COMPONENTES, NIVELES, capacityRows, decimal, percent, pesos } from '../../../score-wasm/www/labels.js';
import { TIPOS_INGRESO } from '../profile-fields.js';

const PRODUCTOS = {
  INFONAVIT: 'Crédito Infonavit',
  FOVISSSTE: 'Crédito Fovissste',
  HIPOTECA_BANCARIA: 'Hipoteca bancaria',
  INFONAVIT_MAS_BANCO: 'Infonavit más banco',
  UNAMOS_CREDITOS: 'Unamos Créditos (ingresos combinados)',
  COFINAVIT: 'Cofinavit (Infonavit y banco)',
};

// Why a product is not available (score-core's `motivos` codes of PRODUCTS.md, section 5).
const MOTIVOS_PRODUCTO = {
  NO_DERECHOHABIENTE_INFONAVIT: 'es para quien cotiza al INFONAVIT',
  NO_DERECHOHABIENTE_FOVISSSTE: 'es para quien cotiza al FOVISSSTE',
  CON_RELACION_LABORAL: 'es para quien no tiene hoy un patrón; con empleo formal, el crédito que une al INFONAVIT y al banco es Cofinavit',
  SIN_RELACION_LABORAL: 'es para quien trabaja hoy con un patrón y cotiza al INFONAVIT; sin patrón, el esquema es Cuenta Infonavit + Crédito Bancario',
  SIN_SUBCUENTA_INFONAVIT: 'usa como enganche el saldo de tu subcuenta del INFONAVIT, y no registras saldo',
  ANTIGUEDAD_INSUFICIENTE: 'aún no cumples la antigüedad que pide',
  INGRESO_MENOR_AL_SALARIO_MINIMO: 'el salario es menor a un salario mínimo',
  SIN_PLAZO_POR_EDAD: 'por la edad no queda plazo',
  SIN_CAPACIDAD_DE_PAGO: 'tus deudas ocupan todo el pago que permite',
  CREDITO_MENOR_AL_MINIMO: 'el crédito sería menor al mínimo de los bancos',
  INGRESO_MENOR_AL_MINIMO_DEL_BANCO: 'tu ingreso es menor al mínimo que pide este crédito',
  SIN_COACREDITADO: 'necesitas registrar a otra persona que cotice al INFONAVIT',
  COACREDITADO_NO_ELEGIBLE: 'la otra persona no califica para INFONAVIT',
};

const CONDICIONES = { PRECALIFICA: 'Precalificas', CONDICIONADO: 'Precalificas con condiciones', NO_PRECALIFICA: 'Todavía no precalificas' };

export function nivelName(nivel) {
  return NIVELES[nivel] ?? nivel;
}

export function Gauge({ score, nivel }) {
  return (
    <div class="score-block">
      <svg class="gauge" data-nivel={nivel} viewBox="0 0 220 130" role="img" aria-label={`Puntaje ${score} en una escala de 0 a 1000`}>
        <path class="gauge-track" d="M 20 110 A 90 90 0 0 1 200 110" pathLength="1000" />
        <path class="gauge-bar" d="M 20 110 A 90 90 0 0 1 200 110" pathLength="1000" stroke-dasharray={`${score} 1000`} />
        <text x="20" y="127" class="gauge-tick" text-anchor="middle">0</text>
        <text x="200" y="127" class="gauge-tick" text-anchor="middle">1000</text>
      </svg>
      <div class="score-text">
        <p class="score-label">Puntaje</p>
        <p>
          <output class="score" data-testid="score">{score}</output>
          <span class="of"> / 1000</span>
        </p>
        <p>
          Nivel: <strong class="nivel" data-nivel={nivel}>{nivelName(nivel)}</strong>
        </p>
      </div>
    </div>
  );
}

function Bars({ componentes }) {
  return (
    <ul class="bars" aria-label="Componentes del puntaje">
      {Object.entries(COMPONENTES).map(([key, name]) => {
        const c = componentes[key];
        if (!c) return null;
        const v = Math.max(0, Math.min(100, c.valor));
        return (
          <li data-componente={key}>
            <span class="bar-name">
              {name} ({Math.round(c.peso * 100)} %)
            </span>
            <span class="bar-track" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow={c.valor} aria-label={`Componente ${name}`}>
              <svg class="bar-fill" viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true">
                <rect width={v} height="1" />
              </svg>
            </span>
            <span class="bar-value">
              {decimal.format(c.valor)} ({decimal.format(c.puntos)} pts)
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function Capacity({ cap, salud }) {
  return (
    <dl class="capacity">
      {capacityRows(cap, salud).map(([key, t, d]) => (
        <div data-key={key}>
          <dt>{t}</dt>
          <dd>{d}</dd>
        </div>
      ))}
    </dl>
  );
}

function Verdict({ dictamen }) {
  return (
    <div class={`verdict verdict-${String(dictamen.condicion).toLowerCase()}`} data-testid="dictamen">
      <h3>{CONDICIONES[dictamen.condicion] ?? dictamen.condicion}</h3>
      {dictamen.motivos?.length > 0 && (
        <ul>
          {dictamen.motivos.map((m) => (
            <li data-codigo={m.codigo}>{m.texto}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Why a product is not available, in words. */
function motivos(p) {
  return (p.motivos ?? []).map((m) => m.texto ?? MOTIVOS_PRODUCTO[m] ?? m).join('; ');
}

/** A figure of a product, or a dash when the product gives none. */
const figure = (value, format) => (value != null ? format.format(value) : '—');

/** The product's figures, in the order a buyer compares them (as CONDUSEF's comparison does:
 * the payment first, then what it buys, then its cost). */
function productFigures(p) {
  return [
    ['pago', 'Pago mensual', figure(p.pago_mensual, pesos)],
    ['credito', 'Crédito máximo', figure(p.credito_max, pesos)],
    ['vivienda', 'Vivienda de hasta', figure(p.valor_vivienda_max, pesos)],
    ['tasa', 'Tasa anual', figure(p.tasa_anual, percent)],
    ['cat', 'CAT', figure(p.cat, percent)],
  ];
}

/**
 * The credit products: a card each where the result is narrow (the recommended one first and
 * marked), a table where there is room for its columns (CSS container query on `.report`).
 */
function Products({ productos, recomendado }) {
  const cards = [...productos].sort((a, b) => (b.producto === recomendado) - (a.producto === recomendado));
  return (
    <div class="products-block" role="region" aria-label="Productos de crédito">
      <ol class="product-cards" data-testid="product-cards">
        {cards.map((p) => (
          <li class={`product-card${p.producto === recomendado ? ' recommended' : ''}`} data-producto={p.producto}>
            <h4>
              {PRODUCTOS[p.producto] ?? p.producto}
              {p.producto === recomendado && <span class="badge">Recomendado</span>}
            </h4>
            <p class={p.elegible ? 'eligible' : 'not-eligible'}>
              {p.elegible ? 'Puedes solicitarlo.' : `No disponible: ${motivos(p) || 'no cumples sus requisitos'}.`}
            </p>
            {p.elegible && (
              <dl class="product-figures">
                {productFigures(p).map(([key, t, d]) => (
                  <div data-key={key}>
                    <dt>{t}</dt>
                    <dd>{d}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        ))}
      </ol>
      <div class="table-scroll" tabIndex={0} role="group" aria-label="Tabla de productos">
        <table class="products">
          <thead>
            <tr>
              <th scope="col">Producto</th>
              <th scope="col">¿Elegible?</th>
              {productFigures({}).map(([key, t]) => (
                <th scope="col" class="num" data-key={key}>
                  {t}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {productos.map((p) => (
              <tr class={p.producto === recomendado ? 'recommended' : undefined}>
                <th scope="row">
                  {PRODUCTOS[p.producto] ?? p.producto}
                  {p.producto === recomendado && <span class="badge">Recomendado</span>}
                </th>
                <td>
                  {p.elegible ? 'Sí' : 'No'}
                  {!p.elegible && motivos(p) && <span class="muted"> ({motivos(p)})</span>}
                </td>
                {productFigures(p).map(([key, , d]) => (
                  <td class="num" data-key={key}>
                    {d}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const CAMPOS = {
  ahorro: 'Ahorro',
  deudas_mensuales: 'Deudas mensuales',
  antiguedad_meses: 'Antigüedad',
  'coacreditado.deudas_mensuales': 'Deudas del coacreditado',
  'coacreditado.ingreso_mensual': 'Ingreso del coacreditado',
  'coacreditado.tipo_ingreso': 'Tipo de ingreso del coacreditado',
  'coacreditado.antiguedad_meses': 'Antigüedad del coacreditado',
  'coacreditado.edad': 'Edad del coacreditado',
};
const TIPOS = Object.fromEntries(TIPOS_INGRESO);

/** A simulated field's value as the buyer reads it: pesos, months, years, an income type, or
 * "sin declarar" (absent; a simulated co-borrower's fields were all absent before). */
function campoValue(campo, value) {
  if (value == null) return 'sin declarar';
  if (typeof value === 'string') return TIPOS[value] ?? value;
  if (campo.endsWith('antiguedad_meses')) return `${decimal.format(value)} meses`;
  if (campo.endsWith('edad')) return `${decimal.format(value)} años`;
  return pesos.format(value);
}

function Simulations({ simulaciones }) {
  return (
    <ol class="recs simulations" data-testid="simulaciones">
      {simulaciones.map((s) => (
        <li data-accion={s.accion}>
          <strong>{s.descripcion}</strong>{' '}
          {s.cambios.map((c) => (
            <span class="muted">
              {CAMPOS[c.campo] ?? c.campo}: {campoValue(c.campo, c.antes)} → {campoValue(c.campo, c.despues)}.{' '}
            </span>
          ))}
          Tu puntaje sería <strong>{s.score}</strong> ({nivelName(s.nivel)}), con crédito de hasta {pesos.format(s.credito_max)}
          {s.meses_para_siguiente_nivel != null && <>; subirías de nivel en {s.meses_para_siguiente_nivel} meses</>}.
        </li>
      ))}
    </ol>
  );
}

export function Report({ report }) {
  const recs = report.recomendaciones_detalle ?? report.recomendaciones.map((texto) => ({ codigo: '', texto }));
  return (
    <div class="report" data-testid="report">
      <Gauge score={report.score} nivel={report.nivel} />
      {report.dictamen && <Verdict dictamen={report.dictamen} />}
      {/* The credit first, as the lenders' simulators show it: which product, its payment. */}
      {Array.isArray(report.productos) && report.productos.length > 0 && (
        <>
          <h3>Productos de crédito</h3>
          <Products productos={report.productos} recomendado={report.producto_recomendado?.producto ?? report.producto_recomendado} />
        </>
      )}
      <h3>Componentes del puntaje</h3>
      <p class="help">Cada barra es el valor del componente (0 a 100); entre paréntesis, los puntos que aporta.</p>
      {report.componentes && <Bars componentes={report.componentes} />}
      <h3>Capacidad de compra estimada</h3>
      <Capacity cap={report.capacidad_compra_estimada} salud={report.salud_financiera} />
      <h3>Recomendaciones</h3>
      <ol class="recs">
        {recs.map((r) => (
          <li data-codigo={r.codigo}>{r.texto}</li>
        ))}
      </ol>
      {Array.isArray(report.simulaciones) && report.simulaciones.length > 0 && (
        <>
          <h3>¿Qué pasaría si…?</h3>
          <Simulations simulaciones={report.simulaciones} />
        </>
      )}
      <p class="disclaimer">{report.disclaimer}</p>
    </div>
  );
}
