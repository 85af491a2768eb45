// ---------------------------------------------------------------------------------------------
// Types of the platform-score JavaScript API: the ONE source for both packages.
//   score-node: `napi build` puts this file at the top of the generated index.d.ts
//               (package.json "napi.dtsHeaderFile").
//   score-wasm: the crate embeds it with include_str! as a wasm-bindgen typescript_custom_section,
//               so it is part of every generated score_wasm.d.ts.
// Keys are the snake_case keys of score-core's JSON (see score-core/src/report.rs); numbers are
// JS numbers with the report's digits (amounts 2 decimals, ratios 4).
// ---------------------------------------------------------------------------------------------

/** ISO 3166-2:MX code of a federal entity, without the `MX-` prefix. */
export type CodigoEstado =
  | 'AGU' | 'BCN' | 'BCS' | 'CAM' | 'COA' | 'COL' | 'CHP' | 'CHH' | 'CMX' | 'DUR' | 'GUA'
  | 'GRO' | 'HID' | 'JAL' | 'MEX' | 'MIC' | 'MOR' | 'NAY' | 'NLE' | 'OAX' | 'PUE' | 'QUE'
  | 'ROO' | 'SLP' | 'SIN' | 'SON' | 'TAB' | 'TAM' | 'TLA' | 'VER' | 'YUC' | 'ZAC';

/** How the household earns its income. */
export type TipoIngreso = 'asalariado' | 'independiente' | 'mixto' | 'pensionado';

/** The buyer profile, the model's only input. Unknown keys are rejected (UNKNOWN_FIELD). */
export interface Profile {
  /** State: ISO code (`"CMX"`, `"MX-JAL"`), INEGI key (`"09"`) or official name. */
  estado: CodigoEstado | (string & {});
  /** Monthly household net income, MXN (> 0). */
  ingreso_mensual: number;
  /** Income type (case-insensitive). */
  tipo_ingreso: TipoIngreso | (string & {});
  /** Months in the current job or activity (whole number). */
  antiguedad_meses: number;
  /** Non-mortgage monthly debt payments, MXN; absent or null = not declared (neutral). */
  deudas_mensuales?: number | null;
  /** Liquid savings for the down payment, MXN (default 0). */
  ahorro?: number | null;
  /** Age in years; limits the loan term. */
  edad?: number | null;
  /** Persons in the household. */
  personas_hogar?: number | null;
  /** Housing-fund sub-account balance, MXN; estimated when absent. */
  subcuenta_fondo?: number | null;
}

/** Score level: 0..400 bajo, 401..600 medio, 601..800 alto, 801..1000 excelente. */
export type Nivel = 'bajo' | 'medio' | 'alto' | 'excelente';
export type EvaluacionM2 = 'INSUFICIENTE' | 'NUCLEO_BASICO' | 'ADECUADO' | 'HOLGADO';
export type EstatusEnganche =
  | 'NO_APLICA' | 'SIN_ENGANCHE' | 'INSUFICIENTE' | 'PARCIAL' | 'CUBIERTO_SIN_GASTOS' | 'CUBIERTO';
export type CodigoRecomendacion =
  | 'INGRESO_BAJO' | 'INGRESO_POCO_COMPROBABLE' | 'ANTIGUEDAD_CORTA' | 'DEUDA_ALTA' | 'AHORRO_BAJO'
  | 'SALUD_FINANCIERA_AJUSTADA' | 'DEUDAS_NO_DECLARADAS' | 'SIN_CAPACIDAD_DE_PAGO'
  | 'PLAZO_LIMITADO_POR_EDAD' | 'ENGANCHE_INSUFICIENTE' | 'GASTOS_DE_CIERRE_PENDIENTES'
  | 'VIVIENDA_BAJO_NUCLEO' | 'PERFIL_SOLIDO';

/** Purchasing capacity (`capacidad_compra_estimada`). */
export interface CapacidadCompra {
  valor_bancario: number;
  valor_realista: number;
  factor_platform_v2: number;
  ltv: number;
  pago_mensual_estimado: number;
  credito_max: number;
  m2_alcanzables: number;
  m2_minimo_nucleo: number;
  evaluacion_m2: EvaluacionM2;
  enganche_requerido: number;
  enganche_disponible: number;
  subcuenta_fondo_estimada: number;
  estatus_enganche: EstatusEnganche;
  renta_equivalente: number;
  gastos_cierre_estimados: number;
  tasa_anual: number;
  plazo_anios: number;
  precio_m2_estado: number;
}

/** Financial health (ISFH). */
export interface SaludFinanciera {
  score: number;
  costo_vida_digno: number;
  ingreso_disponible: number;
  ratio: number;
}

/** One component: value 0..100, weight, and points (valor x peso x 10). */
export interface Componente {
  valor: number;
  peso: number;
  puntos: number;
}

/** The six components of the score. */
export interface Componentes {
  ingreso: Componente;
  tipo_ingreso: Componente;
  antiguedad: Componente;
  deudas: Componente;
  ahorro: Componente;
  salud_financiera: Componente;
}

export interface Recomendacion {
  codigo: CodigoRecomendacion;
  texto: string;
}

export interface EstadoReporte {
  /** INEGI key, `"01"`..`"32"`. */
  clave: string;
  codigo: CodigoEstado;
  nombre: string;
}

/** The full report (`platform_score`), exactly score-core's JSON. */
export interface ScoreReport {
  /** 0..1000. */
  score: number;
  nivel: Nivel;
  capacidad_compra_estimada: CapacidadCompra;
  salud_financiera: SaludFinanciera;
  recomendaciones: string[];
  disclaimer: string;
  valor_vivienda_max: number;
  credito_max: number;
  enganche_min: number;
  pago_mensual_estimado: number;
  renta_estimada: number;
  modelo_version: string;
  estado: EstadoReporte;
  componentes: Componentes;
  recomendaciones_detalle: Recomendacion[];
}

/** Stable error codes of score-core. */
export type ErrorCode =
  | 'INVALID_JSON' | 'INVALID_TYPE' | 'MISSING_FIELD' | 'UNKNOWN_FIELD' | 'UNKNOWN_STATE'
  | 'UNKNOWN_INCOME_TYPE' | 'NEGATIVE_AMOUNT' | 'AMOUNT_TOO_LARGE' | 'NOT_AN_INTEGER'
  | 'VALUE_OUT_OF_RANGE';

/** What `score`, `scoreJson`, `scoreMany` throw and `scoreAsync` rejects with. */
export interface ScoreError extends Error {
  code: ErrorCode;
  /** The profile field at fault, or null when the whole input is at fault. */
  field: keyof Profile | (string & {}) | null;
  /** Position of the failing profile (scoreMany only). */
  index?: number;
}

