// Typed usage of both packages: `tsc -p score-node/types` (make test) fails if the shared
// types (score.d.ts), the generated score-node index.d.ts or the generated score-wasm
// score_wasm.d.ts drift apart or fall back to `any`.
import * as node from '../index';
import * as wasmNode from '../../score-wasm/pkg-node/score_wasm';
import initWeb, * as wasmWeb from '../../score-wasm/pkg-web/score_wasm';
import type { Profile, ScoreReport, ScoreError, Nivel, Componente, CodigoRecomendacion, ErrorCode, DocumentErrorCode } from '../index';

/** A calibration of either package, as the API uses it. */
interface CalibrationLike {
  readonly id: string;
  readonly vigenteDesde: string;
  toToml(): string;
}

/** The API both packages share, stated once; each package must satisfy it (its own
 * `Calibration` class goes in its own options). */
interface ScoreApi<C extends CalibrationLike> {
  score(profile: Profile, options?: { calibration?: C }): ScoreReport;
  scoreJson(profileJson: string, options?: { calibration?: C }): string;
  scoreMany(profiles: Profile[], options?: { errors?: 'throw'; calibration?: C }): ScoreReport[];
  scoreMany(profiles: Profile[], options: { errors: 'return' }): Array<ScoreReport | ScoreError>;
  scoreManyAsync(profiles: Profile[], options?: { errors?: 'throw'; calibration?: C }): Promise<ScoreReport[]>;
  scoreManyAsync(profiles: Profile[], options: { errors: 'return' }): Promise<Array<ScoreReport | ScoreError>>;
  scoreAsync(profile: Profile, options?: { calibration?: C }): Promise<ScoreReport>;
  readonly Calibration: { fromToml(text: string): C; default(): C };
  readonly ScoreError: typeof ScoreError;
  readonly MODEL_VERSION: string;
  readonly VERSION: string;
}
const nodeApi: ScoreApi<node.Calibration> = node;
const wasmNodeApi: ScoreApi<wasmNode.Calibration> = wasmNode;
const wasmWebApi: ScoreApi<wasmWeb.Calibration> = wasmWeb;

const profile: Profile = {
  estado: 'CMX',
  ingreso_mensual: 30000,
  tipo_ingreso: 'asalariado',
  antiguedad_meses: 36,
  ahorro: 100000,
  edad: 35,
  deudas_mensuales: null,
};

function describe(report: ScoreReport): string {
  const nivel: Nivel = report.nivel;
  const points: number = (Object.values(report.componentes) as Componente[]).reduce((s, c) => s + c.puntos, 0);
  const codes: CodigoRecomendacion[] = report.recomendaciones_detalle.map((r) => r.codigo);
  const m2: 'INSUFICIENTE' | 'NUCLEO_BASICO' | 'ADECUADO' | 'HOLGADO' = report.capacidad_compra_estimada.evaluacion_m2;
  return `${report.score} ${nivel} ${points.toFixed(2)} ${codes.join(',')} ${m2} ${report.estado.codigo}`;
}

async function use<C extends CalibrationLike>(api: ScoreApi<C>): Promise<void> {
  {
    const calibration: C = api.Calibration.default();
    const id: string = calibration.id;
    const other = api.Calibration.fromToml(calibration.toToml().replace(id, 'banco-2026'));
    describe(api.score(profile, { calibration: other }));
    describe(await api.scoreAsync(profile, { calibration }));
    api.scoreJson(JSON.stringify(profile), { calibration });
    api.scoreMany([profile], { calibration }).map(describe);
    (await api.scoreManyAsync([profile], { calibration })).map(describe);
    console.log(calibration.vigenteDesde);
    describe(api.score(profile));
    describe(await api.scoreAsync(profile));
    api.scoreMany([profile, { ...profile, estado: 'Jalisco' }]).map(describe);
    const fromText: ScoreReport = JSON.parse(api.scoreJson(JSON.stringify(profile)));
    describe(fromText);
    (await api.scoreManyAsync([profile])).map(describe);
    for (const item of await api.scoreManyAsync([profile, { ...profile, estado: 'XX' }], { errors: 'return' })) {
      if (item instanceof api.ScoreError) console.log(item.code, item.index ?? -1);
      else describe(item);
    }
    try {
      api.score({ ...profile, estado: 'XX' });
    } catch (e) {
      if (!(e instanceof api.ScoreError)) throw e;
      const code: ErrorCode | DocumentErrorCode = e.code;
      const field: string | null = e.field;
      console.log(code, field, e.index ?? -1, e.message);
    }
  }
}

export async function main(): Promise<void> {
  await initWeb();
  await use(nodeApi);
  await use(wasmNodeApi);
  await use(wasmWebApi);
}

// @ts-expect-error: a report's score is a number, not a string.
const wrongScore: string = node.score(profile).score;
// @ts-expect-error: the income type is a closed list in the report's component keys.
const wrongComponent: Componente = node.score(profile).componentes.sueldo;
// @ts-expect-error: a profile needs its required fields.
const incomplete: Profile = { estado: 'CMX' };
// @ts-expect-error: the same in the wasm packages (their generated types are not `any`).
const wrongWasmScore: string = wasmNode.score(profile).score;
// @ts-expect-error: a level is one of four words.
const wrongWebLevel: 'mediano' = wasmWeb.score(profile).nivel;
// @ts-expect-error: scoreMany takes profiles.
wasmWeb.scoreMany([1, 2]);
void [wrongScore, wrongComponent, incomplete, wrongWasmScore, wrongWebLevel];
// @ts-expect-error: a calibration is a Calibration, not its id.
node.score(profile, { calibration: 'mx-2026' });
// @ts-expect-error: the same in WebAssembly.
wasmWeb.scoreMany([profile], { calibration: 'mx-2026' });
// @ts-expect-error: with errors: "return" an item may be a ScoreError, which has no score.
const wrongItem: number = node.scoreMany([profile], { errors: 'return' })[0].score;
// @ts-expect-error: errors is "throw" or "return".
node.scoreMany([profile], { errors: 'ignore' });
// @ts-expect-error: ScoreError's code is one of the stable codes.
const wrongCode: 'OOPS' = (null as unknown as ScoreError).code;
// @ts-expect-error: scoreJson takes the profile's JSON text (score-node).
node.scoreJson(42);
// @ts-expect-error: scoreJson takes the profile's JSON text (score-wasm).
wasmNode.scoreJson(42);
