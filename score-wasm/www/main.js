// The buyer's page: reads the form, scores it with score-wasm in the browser on every change,
// and renders the report. No framework, no network after the first load (see sw.js).
import init, { score, scoreJson, scoreMany, scoreAsync, Calibration, ScoreError, MODEL_VERSION, VERSION } from './pkg/score_wasm.js';
import { COMPONENTES, capacityRows, decimal, pesos } from './labels.js';

const FIELDS = ['estado', 'ingreso_mensual', 'tipo_ingreso', 'antiguedad_meses', 'deudas_mensuales', 'ahorro', 'edad', 'personas_hogar', 'subcuenta_fondo'];

const $ = (id) => document.getElementById(id);

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

/** Every mistake of the profile at once (score-core's `errors`), each marked on its field. */
function showError(err) {
  for (const name of FIELDS) $(name)?.removeAttribute('aria-invalid');
  const errors = err.errors ?? [{ codigo: err.code, campo: err.field ?? null, mensaje: String(err.message ?? err) }];
  const box = $('error');
  box.replaceChildren(...errors.map((e) => {
    const p = document.createElement('p');
    const label = labelOf(e.campo);
    if (e.campo && $(e.campo)) $(e.campo).setAttribute('aria-invalid', 'true');
    p.textContent = label ? `Revisa «${label}»: ${e.mensaje}` : e.mensaje;
    return p;
  }));
  box.dataset.code = errors[0].codigo ?? '';
  box.hidden = false;
  $('reporte').hidden = true;
  $('estado-calculo').textContent = errors.length === 1
    ? 'No se pudo calcular el puntaje: corrige el dato señalado.'
    : `No se pudo calcular el puntaje: corrige los ${errors.length} datos señalados.`;
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
  const rows = capacityRows(cap, salud).map(([key, term, value]) => [term, value, key]);
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
  window.platformScore = { score, scoreJson, scoreMany, scoreAsync, Calibration, ScoreError, MODEL_VERSION, VERSION, readProfile };
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
