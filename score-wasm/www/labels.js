// The words a buyer reads for score-core's report, defined once for both pages that show it:
// this page (main.js) and the platform's calculator (web/src/components/report.jsx imports
// this file). Keys are score-core's (the report's JSON names and codes).

export const NIVELES = { bajo: 'Bajo', medio: 'Medio', alto: 'Alto', excelente: 'Excelente' };

/** The score's components, in the report's order. */
export const COMPONENTES = {
  ingreso: 'Ingreso',
  tipo_ingreso: 'Tipo de ingreso',
  antiguedad: 'Antigüedad',
  deudas: 'Deudas',
  ahorro: 'Ahorro',
  salud_financiera: 'Salud financiera',
};

export const EVALUACION_M2 = {
  INSUFICIENTE: 'menos que una vivienda núcleo',
  NUCLEO_BASICO: 'vivienda núcleo básica',
  ADECUADO: 'adecuada para tu hogar',
  HOLGADO: 'holgada para tu hogar',
};

export const ESTATUS_ENGANCHE = {
  NO_APLICA: 'No aplica',
  SIN_ENGANCHE: 'Sin enganche',
  INSUFICIENTE: 'Insuficiente',
  PARCIAL: 'Parcial',
  CUBIERTO_SIN_GASTOS: 'Cubierto (faltan gastos de escrituración)',
  CUBIERTO: 'Cubierto, con gastos de escrituración',
};

/** The rows of the purchasing capacity, in order: [key, title, how the value reads]. */
export const CAPACIDAD = [
  ['valor_realista', 'Valor de vivienda recomendado'],
  ['valor_bancario', 'Valor máximo que financia un banco'],
  ['credito_max', 'Crédito máximo'],
  ['pago_mensual_estimado', 'Pago mensual estimado'],
  ['plazo', 'Plazo y tasa'],
  ['enganche_requerido', 'Enganche requerido'],
  ['enganche_disponible', 'Enganche disponible (ahorro + subcuenta)'],
  ['estatus_enganche', 'Estatus del enganche'],
  ['m2', 'Metros cuadrados alcanzables'],
  ['renta_equivalente', 'Renta equivalente'],
  ['ingreso_disponible', 'Ingreso disponible tras costo de vida'],
];

export const pesos = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 });
export const decimal = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 });
export const percent = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 2 });

/** The capacity rows of a report as [key, title, text], the rows the report has. */
export function capacityRows(cap, salud) {
  const values = {
    valor_realista: pesos.format(cap.valor_realista),
    valor_bancario: pesos.format(cap.valor_bancario),
    credito_max: pesos.format(cap.credito_max),
    pago_mensual_estimado: pesos.format(cap.pago_mensual_estimado),
    plazo: cap.plazo_anios != null ? `${cap.plazo_anios} años al ${percent.format(cap.tasa_anual)} anual` : null,
    enganche_requerido: pesos.format(cap.enganche_requerido),
    enganche_disponible: pesos.format(cap.enganche_disponible),
    estatus_enganche: ESTATUS_ENGANCHE[cap.estatus_enganche] ?? cap.estatus_enganche,
    m2: `${decimal.format(cap.m2_alcanzables)} m² (${EVALUACION_M2[cap.evaluacion_m2] ?? cap.evaluacion_m2}; núcleo: ${decimal.format(cap.m2_minimo_nucleo)} m²)`,
    renta_equivalente: pesos.format(cap.renta_equivalente),
    ingreso_disponible: salud ? pesos.format(salud.ingreso_disponible) : null,
  };
  return CAPACIDAD.filter(([key]) => values[key] != null).map(([key, title]) => [key, title, values[key]]);
}
