// The buyer's page: reads the form, scores it with score-wasm in the browser on every change,
// and renders the report. No framework, no network after the first load (see sw.js).
import init, { score, scoreJson, scoreMany, scoreAsync, MODEL_VERSION, VERSION } from './pkg/score_wasm.js';

const FIELDS = ['estado', 'ingreso_mensual', 'tipo_ingreso', 'antiguedad_meses', 'deudas_mensuales', 'ahorro', 'edad', 'personas_hogar', 'subcuenta_fondo'];

const COMPONENTES = {
  ingreso: 'Ingreso',
  tipo_ingreso: 'Tipo de ingreso',
  antiguedad: 'Antigüedad',
  deudas: 'Deudas',
  ahorro: 'Ahorro',
  salud_financiera: 'Salud financiera',
};

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

const $ = (id) => document.getElementById(id);
const pesos = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 2 });

/** The profile the form describes: empty optional fields are left out (absent, not zero). */
export function readProfile(form) {
  const profile = {};
  for (const name of FIELDS) {
    const el = form.elements.namedItem(name);
    if (!el) continue;
    if (el.tagName === 'SELECT') {
      profile[name] = el.value;
    } else if (el.value.trim() !== '') {
      profile[name] = Number(el.value);
    }
  }
  return profile;
}

function labelOf(field) {
  const label = field && document.querySelector(`label[for="${field}"]`);
  return label ? label.textContent.replace(/\s*\*$/, '') : null;
}

function showError(err) {
  for (const name of FIELDS) $(name)?.removeAttribute('aria-invalid');
  const box = $('error');
  const message = String(err.message ?? err).replace(/^[A-Z_]+: /, '');
  const label = labelOf(err.field);
  if (err.field && $(err.field)) $(err.field).setAttribute('aria-invalid', 'true');
  box.textContent = label ? `Revisa «${label}»: ${message}` : message;
  box.dataset.code = err.code ?? '';
  box.hidden = false;
  $('reporte').hidden = true;
  $('estado-calculo').textContent = 'No se pudo calcular el puntaje: corrige el dato señalado.';
}

function renderBars(componentes) {
  const list = $('componentes');
  list.replaceChildren();
  for (const [key, nombre] of Object.entries(COMPONENTES)) {
    const c = componentes[key];
    const li = document.createElement('li');
    li.dataset.componente = key;
    const name = document.createElement('span');
    name.className = 'bar-name';
    name.textContent = `${nombre} (${Math.round(c.peso * 100)} %)`;
    const track = document.createElement('span');
    track.className = 'bar-track';
    track.setAttribute('role', 'meter');
    track.setAttribute('aria-valuemin', '0');
    track.setAttribute('aria-valuemax', '100');
    track.setAttribute('aria-valuenow', String(c.valor));
    track.setAttribute('aria-label', `Componente ${nombre}`);
    const fill = document.createElement('span');
    fill.className = 'bar-fill';
    fill.style.width = `${Math.max(0, Math.min(100, c.valor))}%`;
    track.append(fill);
    const value = document.createElement('span');
    value.className = 'bar-value';
    value.textContent = `${decimal.format(c.valor)} (${decimal.format(c.puntos)} pts)`;
    li.append(name, track, value);
    list.append(li);
  }
}

function renderCapacity(cap, salud) {
  const rows = [
    ['Valor de vivienda recomendado', pesos.format(cap.valor_realista), 'valor_realista'],
    ['Valor máximo que financia un banco', pesos.format(cap.valor_bancario), 'valor_bancario'],
    ['Crédito máximo', pesos.format(cap.credito_max), 'credito_max'],
    ['Pago mensual estimado', pesos.format(cap.pago_mensual_estimado), 'pago_mensual_estimado'],
    ['Plazo y tasa', `${cap.plazo_anios} años al ${percent.format(cap.tasa_anual)} anual`, 'plazo'],
    ['Enganche requerido', pesos.format(cap.enganche_requerido), 'enganche_requerido'],
    ['Enganche disponible (ahorro + subcuenta)', pesos.format(cap.enganche_disponible), 'enganche_disponible'],
    ['Estatus del enganche', ESTATUS_ENGANCHE[cap.estatus_enganche] ?? cap.estatus_enganche, 'estatus_enganche'],
    ['Metros cuadrados alcanzables', `${decimal.format(cap.m2_alcanzables)} m² (${EVALUACION_M2[cap.evaluacion_m2] ?? cap.evaluacion_m2}; núcleo: ${decimal.format(cap.m2_minimo_nucleo)} m²)`, 'm2'],
    ['Renta equivalente', pesos.format(cap.renta_equivalente), 'renta_equivalente'],
    ['Ingreso disponible tras costo de vida', pesos.format(salud.ingreso_disponible), 'ingreso_disponible'],
  ];
  const dl = $('capacidad');
  dl.replaceChildren();
  for (const [term, value, key] of rows) {
    const div = document.createElement('div');
    div.dataset.key = key;
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    div.append(dt, dd);
    dl.append(div);
  }
}

export function render(report) {
  for (const name of FIELDS) $(name)?.removeAttribute('aria-invalid');
  $('error').hidden = true;
  $('reporte').hidden = false;
  $('score').textContent = String(report.score);
  $('nivel').textContent = report.nivel;
  $('nivel').dataset.nivel = report.nivel;
  $('gauge').dataset.nivel = report.nivel;
  $('gauge-bar').setAttribute('stroke-dasharray', `${report.score} 1000`);
  $('gauge-titulo').textContent = `Puntaje ${report.score} en una escala de 0 a 1000`;
  renderBars(report.componentes);
  renderCapacity(report.capacidad_compra_estimada, report.salud_financiera);
  const recs = $('recomendaciones');
  recs.replaceChildren(...report.recomendaciones_detalle.map((r) => {
    const li = document.createElement('li');
    li.dataset.codigo = r.codigo;
    li.textContent = r.texto;
    return li;
  }));
  $('disclaimer').textContent = report.disclaimer;
  $('estado-calculo').textContent = `Puntaje ${report.score} de 1000, nivel ${report.nivel}. Valor de vivienda recomendado: ${pesos.format(report.capacidad_compra_estimada.valor_realista)}.`;
}

function update() {
  try {
    render(score(readProfile($('perfil'))));
  } catch (err) {
    showError(err);
  }
}

async function main() {
  await init();
  // The API, for the end-to-end test and the curious (same names as score-node).
  window.platformScore = { score, scoreJson, scoreMany, scoreAsync, MODEL_VERSION, VERSION, readProfile };
  $('modelo').textContent = MODEL_VERSION;
  $('version').textContent = VERSION;
  const form = $('perfil');
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  form.addEventListener('submit', (e) => { e.preventDefault(); update(); });
  update();
  document.body.dataset.ready = '1';
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('sw.js').catch(() => { /* offline support is optional */ });
  }
}

main().catch((err) => {
  $('estado-calculo').textContent = `No se pudo cargar el modelo: ${err.message ?? err}`;
  document.body.dataset.ready = 'error';
});
