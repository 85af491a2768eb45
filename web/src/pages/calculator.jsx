// The buyer's calculator: scores the profile in the page with score-wasm on every keystroke
// (nothing is sent until the buyer saves), shows every problem of the form at once, and saves
// the profile with its contact (onboarding, phases 1 and 2 in one call) to open the report,
// the compatible properties and "me interesa". Payroll receipts dropped on the page are read
// in the page (score-docs' WebAssembly) and fill the fields they prove, marked verified; they
// are sent to the server only if the buyer ticks the box when saving.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import init, { score } from 'score-wasm';
import { api } from '../api.js';
import { Alert, Field, Loading, PageTitle, formValues } from '../components/ui.jsx';
import { Report } from '../components/report.jsx';
import { CO_FIELDS, ESTADOS, FIELDS, INSTITUCIONES, TIPOS_INGRESO, buyerMessage, evaluate } from '../profile-fields.js';
import { useSession } from '../session.jsx';
import { MyProfiles, rememberProfile } from './accounts.jsx';
import { ReceiptsCard, formText, uploadReceipts, verifiedNote } from '../components/receipts.jsx';

let ready = null;
function loadModel() {
  ready ??= init();
  return ready;
}

/** The fields receipts fill (the state stays the buyer's: where they want to buy). */
const FILLED_BY_RECEIPTS = ['ingreso_mensual', 'tipo_ingreso', 'antiguedad_meses', 'deudas_mensuales'];

const START = { ingreso_mensual: '30000', tipo_ingreso: 'asalariado', antiguedad_meses: '36', estado: 'CMX', edad: '', personas_hogar: '', ahorro: '100000', deudas_mensuales: '', subcuenta_fondo: '', institucion: '',
  ...Object.fromEntries(CO_FIELDS.map((f) => [f.key, ''])) };

/** One field of the profile form, with its options, help, verified note and error. */
function ProfileField({ field: f, values, verified, errors }) {
  const co = f.key.startsWith('coacreditado.');
  return (
    <Field
      key={f.key}
      label={f.label}
      name={f.key}
      id={f.key}
      as={f.kind === 'select' ? 'select' : 'input'}
      inputMode={f.kind === 'money' ? 'decimal' : f.kind === 'count' ? 'numeric' : undefined}
      autocomplete="off"
      required={f.required && !co}
      value={values[f.key]}
      help={f.help}
      note={verified ? verifiedNote(verified, f.key, values[f.key]) : undefined}
      error={errors?.[f.key]}
    >
      {f.key === 'estado' && ESTADOS.map(([code, name]) => <option value={code}>{name}</option>)}
      {f.key === 'tipo_ingreso' && TIPOS_INGRESO.map(([code, name]) => <option value={code}>{name}</option>)}
      {f.key === 'coacreditado.tipo_ingreso' &&
        [['', 'Elige…'], ...TIPOS_INGRESO].map(([code, name]) => <option value={code}>{name}</option>)}
      {(f.key === 'institucion' || f.key === 'coacreditado.institucion') &&
        INSTITUCIONES.map(([code, name]) => <option value={code}>{name}</option>)}
    </Field>
  );
}

export function Calculator() {
  const [model, setModel] = useState('loading');
  const [values, setValues] = useState(START);
  const { user } = useSession();
  const { route } = useLocation();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState(null);
  const [savedId, setSavedId] = useState(null);
  // {profile: score-docs' verified profile, files: the File objects}, while in the page.
  const [verified, setVerified] = useState(null);

  function onReceipts(profile, files) {
    setVerified({ profile, files });
    setValues((v) => {
      const next = { ...v };
      for (const key of FILLED_BY_RECEIPTS) {
        const value = profile.perfil[key];
        if (value === undefined) continue;
        // Payroll debts are a floor of all debts: a larger amount the buyer typed stays.
        if (key === 'deudas_mensuales' && Number(String(v[key]).replace(/[$\s,]/g, '')) > value) continue;
        next[key] = formText(key, value);
      }
      return next;
    });
  }

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
    const sendReceipts = verified && contact.enviar_recibos === 'si';
    setSaving(true);
    setSaveError(null);
    let saved = null;
    try {
      const body = { ...result.profile, nombre: contact.nombre || undefined, email: contact.email || undefined, telefono: contact.telefono || undefined };
      const res = await api('/api/v1/onboarding/perfil', { method: 'POST', body });
      saved = res.data;
      rememberProfile({ id: saved.id, score: saved.platform_score.score, estado: saved.perfil.estado });
      if (sendReceipts) {
        const checked = await uploadReceipts(saved.id, verified.files);
        rememberProfile({ id: saved.id, score: checked.platform_score.score, estado: checked.perfil.estado });
      }
      route(`/profile/${saved.id}`);
    } catch (err) {
      const message = err.errores?.length ? err.errores.map(buyerMessage).join(' ') : err.message;
      if (saved) {
        setSavedId(saved.id);
        setSaveError(`Tu perfil se guardó, pero tus recibos no se enviaron: ${message}`);
      } else {
        setSaveError(message);
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <section>
      <PageTitle lead="Tu puntaje se calcula en tu navegador mientras escribes. Nada se envía hasta que decides guardarlo.">
        ¿Cuánta casa puedes comprar?
      </PageTitle>
      <ReceiptsCard verified={verified} onRead={onReceipts} onClear={() => setVerified(null)} />
      <div class="layout">
        <form class="card" id="perfil" onInput={onInput} onChange={onInput} onSubmit={(e) => e.preventDefault()} noValidate>
          <h2>Tu perfil</h2>
          <p class="help">Los campos marcados con * son obligatorios. Montos en pesos mexicanos.</p>
          {FIELDS.map((f) => (
            <ProfileField field={f} values={values} verified={verified} errors={result?.errors} />
          ))}
          <details class="coborrower" open={CO_FIELDS.some((f) => values[f.key] !== '') || undefined}>
            <summary>¿Solicitas el crédito con otra persona?</summary>
            <p class="help">
              Tu cónyuge u otra persona de tu hogar cuyo ingreso ya sumaste arriba. No cambia tu puntaje: permite que los
              créditos sumen los dos ingresos (por ejemplo, Unamos Créditos del Infonavit). Déjalo vacío si solicitas solo.
            </p>
            {CO_FIELDS.map((f) => (
              <ProfileField field={f} values={values} errors={result?.errors} />
            ))}
          </details>
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
                {verified && (
                  <div class="check">
                    <input type="checkbox" id="enviar_recibos" name="enviar_recibos" value="si" />
                    <label for="enviar_recibos">
                      Enviar también mis {verified.files.length === 1 ? 'recibo' : `${verified.files.length} recibos`} para dejar mi perfil verificado. Se guardan los datos
                      del recibo y una huella (SHA-256) de cada archivo, no los archivos.
                    </label>
                  </div>
                )}
                <Alert>{saveError}</Alert>
                {savedId && (
                  <p>
                    <a href={`/profile/${savedId}`}>Ver mi perfil guardado</a>
                  </p>
                )}
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
