// The score report (score-core's `platform_score`): gauge, components, purchasing capacity,
// recommendations, and the verdict, credit products and what-if blocks when the report has
// them (later model calibrations add `dictamen`, `productos`, `simulaciones`).
import { decimal, pesos, percent } from './ui.jsx';
import { TIPOS_INGRESO } from '../profile-fields.js';

const NIVELES = { bajo: 'Bajo', medio: 'Medio', alto: 'Alto', excelente: 'Excelente' };

const COMPONENTES = [
  ['ingreso', 'Ingreso'],
  ['tipo_ingreso', 'Tipo de ingreso'],
  ['antiguedad', 'Antigüedad'],
  ['deudas', 'Deudas'],
  ['ahorro', 'Ahorro'],
  ['salud_financiera', 'Salud financiera'],
];

const EVALUACION_M2 = {
  INSUFICIENTE: 'menos que una vivienda núcleo',
  NUCLEO_BASICO: 'vivienda núcleo básica',
  ADECUADO: 'adecuada para tu hogar',
  HOLGADO: 'holgada para tu hogar',
};

const ESTATUS_ENGANCHE = {
  NO_APLICA: 'No aplica',
  SIN_ENGANCHE: 'Sin enganche',
  INSUFICIENTE: 'Insuficiente',
  PARCIAL: 'Parcial',
  CUBIERTO_SIN_GASTOS: 'Cubierto (faltan gastos de escrituración)',
  CUBIERTO: 'Cubierto, con gastos de escrituración',
};

const PRODUCTOS = {
  INFONAVIT: 'Crédito Infonavit',
  FOVISSSTE: 'Crédito Fovissste',
  HIPOTECA_BANCARIA: 'Hipoteca bancaria',
  INFONAVIT_MAS_BANCO: 'Infonavit más banco',
  UNAMOS_CREDITOS: 'Unamos Créditos (ingresos combinados)',
};

// Why a product is not available (score-core's `motivos` codes of PRODUCTS.md, section 5).
const MOTIVOS_PRODUCTO = {
  NO_DERECHOHABIENTE_INFONAVIT: 'es para quien cotiza al INFONAVIT',
  NO_DERECHOHABIENTE_FOVISSSTE: 'es para quien cotiza al FOVISSSTE',
  ANTIGUEDAD_INSUFICIENTE: 'aún no cumples la antigüedad que pide',
  INGRESO_MENOR_AL_SALARIO_MINIMO: 'el salario es menor a un salario mínimo',
  SIN_PLAZO_POR_EDAD: 'por la edad no queda plazo',
  SIN_CAPACIDAD_DE_PAGO: 'tus deudas ocupan todo el pago que permite',
  CREDITO_MENOR_AL_MINIMO: 'el crédito sería menor al mínimo de los bancos',
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
      {COMPONENTES.map(([key, name]) => {
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
  const rows = [
    ['Valor de vivienda recomendado', pesos.format(cap.valor_realista)],
    ['Valor máximo que financia un banco', pesos.format(cap.valor_bancario)],
    ['Crédito máximo', pesos.format(cap.credito_max)],
    ['Pago mensual estimado', pesos.format(cap.pago_mensual_estimado)],
    cap.plazo_anios != null && ['Plazo y tasa', `${cap.plazo_anios} años al ${percent.format(cap.tasa_anual)} anual`],
    ['Enganche requerido', pesos.format(cap.enganche_requerido)],
    ['Enganche disponible (ahorro + subcuenta)', pesos.format(cap.enganche_disponible)],
    ['Estatus del enganche', ESTATUS_ENGANCHE[cap.estatus_enganche] ?? cap.estatus_enganche],
    ['Metros cuadrados alcanzables', `${decimal.format(cap.m2_alcanzables)} m² (${EVALUACION_M2[cap.evaluacion_m2] ?? cap.evaluacion_m2}; núcleo: ${decimal.format(cap.m2_minimo_nucleo)} m²)`],
    ['Renta equivalente', pesos.format(cap.renta_equivalente)],
    salud && ['Ingreso disponible tras costo de vida', pesos.format(salud.ingreso_disponible)],
  ].filter(Boolean);
  return (
    <dl class="capacity">
      {rows.map(([t, d]) => (
        <div>
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

function Products({ productos, recomendado }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="Productos de crédito">
      <table class="products">
        <thead>
          <tr>
            <th scope="col">Producto</th>
            <th scope="col">¿Elegible?</th>
            <th scope="col">Tasa</th>
            <th scope="col">CAT</th>
            <th scope="col">Pago mensual</th>
            <th scope="col">Crédito máximo</th>
            <th scope="col">Vivienda de hasta</th>
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
                {!p.elegible && p.motivos?.length > 0 && (
                  <span class="muted"> ({p.motivos.map((m) => m.texto ?? MOTIVOS_PRODUCTO[m] ?? m).join('; ')})</span>
                )}
              </td>
              <td>{p.tasa_anual != null ? percent.format(p.tasa_anual) : '—'}</td>
              <td>{p.cat != null ? percent.format(p.cat) : '—'}</td>
              <td>{p.pago_mensual != null ? pesos.format(p.pago_mensual) : '—'}</td>
              <td>{p.credito_max != null ? pesos.format(p.credito_max) : '—'}</td>
              <td>{p.valor_vivienda_max != null ? pesos.format(p.valor_vivienda_max) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
      <h3>Componentes del puntaje</h3>
      <p class="help">Cada barra es el valor del componente (0 a 100); entre paréntesis, los puntos que aporta.</p>
      {report.componentes && <Bars componentes={report.componentes} />}
      <h3>Capacidad de compra estimada</h3>
      <Capacity cap={report.capacidad_compra_estimada} salud={report.salud_financiera} />
      {Array.isArray(report.productos) && report.productos.length > 0 && (
        <>
          <h3>Productos de crédito</h3>
          <Products productos={report.productos} recomendado={report.producto_recomendado?.producto ?? report.producto_recomendado} />
        </>
      )}
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
