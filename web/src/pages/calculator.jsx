// The buyer's calculator: scores the profile in the page with score-wasm on every keystroke
// (nothing is sent until the buyer saves), shows every problem of the form at once, and saves
// the profile with its contact (onboarding, phases 1 and 2 in one call) to open the report,
// the compatible properties and "me interesa".
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import init, { score } from 'score-wasm';
import { api } from '../api.js';
import { Alert, Field, Loading, PageTitle, formValues } from '../components/ui.jsx';
import { Report } from '../components/report.jsx';
import { ESTADOS, FIELDS, TIPOS_INGRESO, buyerMessage, evaluate } from '../profile-fields.js';
import { useSession } from '../session.jsx';
import { MyProfiles, rememberProfile } from './accounts.jsx';

let ready = null;
function loadModel() {
  ready ??= init();
  return ready;
}

const START = { ingreso_mensual: '30000', tipo_ingreso: 'asalariado', antiguedad_meses: '36', estado: 'CMX', edad: '', personas_hogar: '', ahorro: '100000', deudas_mensuales: '', subcuenta_fondo: '' };

export function Calculator() {
  const [model, setModel] = useState('loading');
  const [values, setValues] = useState(START);
  const { user } = useSession();
  const { route } = useLocation();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState(null);

  useEffect(() => {
    loadModel().then(
      () => setModel('ready'),
      (e) => setModel(`error:${e.message ?? e}`),
    );
  }, []);

  const result = useMemo(() => (model === 'ready' ? evaluate(score, values) : null), [model, values]);
  const errorCount = result ? Object.keys(result.errors).length : 0;

  function onInput(e) {
    const { name, value } = e.target;
    if (name in START) setValues((v) => ({ ...v, [name]: value }));
  }

  async function save(e) {
    e.preventDefault();
    if (!result?.report) return;
    const contact = formValues(e.currentTarget);
    setSaving(true);
    setSaveError(null);
    try {
      const body = { ...result.profile, nombre: contact.nombre || undefined, email: contact.email || undefined, telefono: contact.telefono || undefined };
      const res = await api('/api/v1/onboarding/perfil', { method: 'POST', body });
      const saved = res.data;
      rememberProfile({ id: saved.id, score: saved.platform_score.score, estado: saved.perfil.estado });
      route(`/profile/${saved.id}`);
    } catch (err) {
      setSaveError(err.field ? `${buyerMessage(err.message)}` : err.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section>
      <PageTitle lead="Tu puntaje se calcula en tu navegador mientras escribes. Nada se envía hasta que decides guardarlo.">
        ¿Cuánta casa puedes comprar?
      </PageTitle>
      <div class="layout">
        <form class="card" id="perfil" onInput={onInput} onChange={onInput} onSubmit={(e) => e.preventDefault()} noValidate>
          <h2>Tu perfil</h2>
          <p class="help">Los campos marcados con * son obligatorios. Montos en pesos mexicanos.</p>
          {FIELDS.map((f) => (
            <Field
              key={f.key}
              label={f.label}
              name={f.key}
              id={f.key}
              as={f.kind === 'select' ? 'select' : 'input'}
              inputMode={f.kind === 'money' ? 'decimal' : f.kind === 'count' ? 'numeric' : undefined}
              autocomplete="off"
              required={f.required}
              value={values[f.key]}
              help={f.help}
              error={result?.errors[f.key]}
            >
              {f.key === 'estado' && ESTADOS.map(([code, name]) => <option value={code}>{name}</option>)}
              {f.key === 'tipo_ingreso' && TIPOS_INGRESO.map(([code, name]) => <option value={code}>{name}</option>)}
            </Field>
          ))}
        </form>

        <div class="card result" aria-labelledby="resultado-titulo">
          <h2 id="resultado-titulo">Tu resultado</h2>
          <div class="status" role="status" aria-live="polite" aria-atomic="true" data-testid="calc-status">
            {model === 'loading' && 'Cargando el modelo…'}
            {model.startsWith('error:') && `No se pudo cargar el modelo: ${model.slice(6)}`}
            {result?.report && `Puntaje ${result.report.score} de 1000.`}
            {errorCount > 0 && `Hay ${errorCount === 1 ? 'un dato por corregir' : `${errorCount} datos por corregir`}.`}
          </div>
          {model === 'loading' && <Loading>Cargando el modelo…</Loading>}
          {errorCount > 0 && (
            <div class="alert alert-error" data-testid="calc-errors">
              <p>Corrige estos datos para ver tu puntaje:</p>
              <ul>
                {Object.entries(result.errors).map(([key, message]) => (
                  <li>
                    <a href={`#${key}`}>{message}</a>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {result?.report && (
            <>
              <Report report={result.report} />
              <form class="save" onSubmit={save}>
                <h3>Guarda tu perfil y ve propiedades compatibles</h3>
                <p class="help">Tus datos de contacto solo se comparten con el agente de una propiedad cuando indicas que te interesa.</p>
                <Field label="Nombre" name="nombre" autocomplete="name" defaultValue={user ? `${user.firstName} ${user.lastName}` : ''} />
                <Field label="Correo electrónico" name="email" type="email" autocomplete="email" defaultValue={user?.email ?? ''} />
                <Field label="Teléfono" name="telefono" type="tel" autocomplete="tel" />
                <Alert>{saveError}</Alert>
                <button class="button" type="submit" disabled={saving}>
                  {saving ? 'Guardando…' : 'Guardar y ver propiedades'}
                </button>
              </form>
            </>
          )}
        </div>
      </div>
      <MyProfiles />
    </section>
  );
}
