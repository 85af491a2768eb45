// The buyer profile as the calculator shows it: score-core's fields with the words a buyer
// reads, and the conversion of score-core's error messages, which name fields by their key
// (`El campo "ingreso_mensual" ...`), into those words.

export const FIELDS = [
  { key: 'ingreso_mensual', label: 'Ingreso mensual neto del hogar', required: true, kind: 'money', help: 'Lo que recibe tu hogar cada mes, después de impuestos (MXN).' },
  { key: 'tipo_ingreso', label: 'Tipo de ingreso', required: true, kind: 'select' },
  { key: 'antiguedad_meses', label: 'Antigüedad en tu empleo o actividad (meses)', required: true, kind: 'count' },
  { key: 'estado', label: 'Estado donde quieres comprar', required: true, kind: 'select' },
  { key: 'edad', label: 'Edad (años)', kind: 'count' },
  { key: 'personas_hogar', label: 'Personas en tu hogar', kind: 'count' },
  { key: 'ahorro', label: 'Ahorro para el enganche', kind: 'money', help: 'MXN.' },
  { key: 'deudas_mensuales', label: 'Pagos mensuales de deudas', kind: 'money', help: 'Tarjetas, auto, préstamos (MXN). Si lo dejas vacío se evalúan como neutras.' },
  { key: 'subcuenta_fondo', label: 'Saldo de tu subcuenta de vivienda', kind: 'money', help: 'Infonavit o Fovissste (MXN). Se estima si lo dejas vacío.' },
  { key: 'institucion', label: 'Fondo de vivienda al que cotizas', kind: 'select', help: 'Decide qué créditos de vivienda puedes pedir; no cambia tu puntaje.' },
];

/**
 * score-core's `coacreditado`, a second borrower whose income is part of the household's: its
 * fields by their path, as score-core's errors name them. All empty: no co-borrower.
 */
export const CO_FIELDS = [
  { key: 'coacreditado.ingreso_mensual', label: 'Ingreso mensual neto del coacreditado', required: true, kind: 'money', help: 'La parte del ingreso de tu hogar que gana la otra persona (MXN).' },
  { key: 'coacreditado.tipo_ingreso', label: 'Tipo de ingreso del coacreditado', required: true, kind: 'select' },
  { key: 'coacreditado.antiguedad_meses', label: 'Antigüedad del coacreditado (meses)', required: true, kind: 'count' },
  { key: 'coacreditado.edad', label: 'Edad del coacreditado (años)', kind: 'count' },
  { key: 'coacreditado.institucion', label: 'Fondo de vivienda del coacreditado', kind: 'select' },
];

export const LABELS = Object.fromEntries([...FIELDS, ...CO_FIELDS].map((f) => [f.key, f.label]));

export const TIPOS_INGRESO = [
  ['asalariado', 'Asalariado (nómina)'],
  ['independiente', 'Independiente o negocio propio'],
  ['mixto', 'Mixto (nómina e independiente)'],
  ['pensionado', 'Pensionado'],
];

// score-core's `institucion`; the empty choice leaves it out (INFONAVIT for payroll incomes).
export const INSTITUCIONES = [
  ['', 'No sé / según mi tipo de ingreso'],
  ['INFONAVIT', 'Infonavit (empresa privada)'],
  ['FOVISSSTE', 'Fovissste (trabajador del Estado)'],
  ['NINGUNA', 'Ninguno'],
];

export const ESTADOS = [
  ['AGU', 'Aguascalientes'], ['BCN', 'Baja California'], ['BCS', 'Baja California Sur'], ['CAM', 'Campeche'],
  ['CHP', 'Chiapas'], ['CHH', 'Chihuahua'], ['CMX', 'Ciudad de México'], ['COA', 'Coahuila'], ['COL', 'Colima'],
  ['DUR', 'Durango'], ['MEX', 'Estado de México'], ['GUA', 'Guanajuato'], ['GRO', 'Guerrero'], ['HID', 'Hidalgo'],
  ['JAL', 'Jalisco'], ['MIC', 'Michoacán'], ['MOR', 'Morelos'], ['NAY', 'Nayarit'], ['NLE', 'Nuevo León'],
  ['OAX', 'Oaxaca'], ['PUE', 'Puebla'], ['QUE', 'Querétaro'], ['ROO', 'Quintana Roo'], ['SLP', 'San Luis Potosí'],
  ['SIN', 'Sinaloa'], ['SON', 'Sonora'], ['TAB', 'Tabasco'], ['TAM', 'Tamaulipas'], ['TLA', 'Tlaxcala'],
  ['VER', 'Veracruz'], ['YUC', 'Yucatán'], ['ZAC', 'Zacatecas'],
];

/** score-core's message with the field's words in place of its key. */
export function buyerMessage(message) {
  return String(message)
    .replace(/^[A-Z_]+: /, '')
    .replace(/El campo "([a-z_.]+)"/g, (_, key) => `«${LABELS[key] ?? key}»`)
    .replace(/"([a-z_.]+)"/g, (whole, key) => (LABELS[key] ? `«${LABELS[key]}»` : whole));
}

/**
 * What the buyer typed in one field, as the profile value: empty is absent; "30,000" and
 * "$30 000" are 30000; anything else is passed as text so score-core names the problem.
 */
export function readValue(field, text) {
  const t = String(text ?? '').trim();
  if (t === '') return undefined;
  if (field.kind === 'select') return t;
  const cleaned = t.replace(/[$\s,]/g, '');
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : t;
}

/** A profile that passes every check, so one field at a time can be tried against it. */
const BASELINE = { estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36 };

/**
 * Every problem of the form at once: score-core stops at the first error, so each field is
 * checked alone against a valid baseline (score-core's own rules and Spanish messages),
 * then the whole profile is scored. Returns {profile, errors, report}.
 */
export function evaluate(score, values) {
  const profile = {};
  for (const f of FIELDS) {
    const v = readValue(f, values[f.key]);
    if (v !== undefined) profile[f.key] = v;
  }
  const co = {};
  for (const f of CO_FIELDS) {
    const v = readValue(f, values[f.key]);
    if (v !== undefined) co[f.key.slice('coacreditado.'.length)] = v;
  }
  if (Object.keys(co).length) profile.coacreditado = co;
  const errors = {};
  for (const f of FIELDS) {
    const trial = { ...BASELINE };
    if (f.key in profile) trial[f.key] = profile[f.key];
    else if (f.required) delete trial[f.key];
    else continue;
    try {
      score(trial);
    } catch (e) {
      errors[f.key] = buyerMessage(e.message);
    }
  }
  if (profile.coacreditado) {
    // The co-borrower is checked as a whole, against the household's income when it is valid
    // (its income must be a part of it).
    const trial = { ...BASELINE, coacreditado: profile.coacreditado };
    if (!errors.ingreso_mensual && 'ingreso_mensual' in profile) trial.ingreso_mensual = profile.ingreso_mensual;
    if (!errors.deudas_mensuales && 'deudas_mensuales' in profile) trial.deudas_mensuales = profile.deudas_mensuales;
    try {
      score(trial);
    } catch (e) {
      errors[e.field ?? 'coacreditado.ingreso_mensual'] = buyerMessage(e.message);
    }
  }
  if (Object.keys(errors).length) return { profile, errors, report: null };
  try {
    return { profile, errors, report: score(profile) };
  } catch (e) {
    // A combination of valid fields the model still refuses: shown at the field it names.
    return { profile, errors: { [e.field ?? '_']: buyerMessage(e.message) }, report: null };
  }
}
