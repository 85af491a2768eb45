// Type-checked by pack-test.sh against the installed package (@PACKAGE@ is replaced by its
// name): the types ship in the tarball and resolve through its `exports`.
import { score, scoreMany, scoreManyAsync, ScoreError } from '@PACKAGE@';
import type { Profile, ScoreReport, ErrorCode } from '@PACKAGE@';

const profile: Profile = { estado: 'CMX', ingreso_mensual: 30000, tipo_ingreso: 'asalariado', antiguedad_meses: 36 };
const report: ScoreReport = score(profile);
const points: number = report.score;
const items: Array<ScoreReport | ScoreError> = scoreMany([profile], { errors: 'return' });
const later: Promise<ScoreReport[]> = scoreManyAsync([profile]);
for (const item of items) {
  if (item instanceof ScoreError) {
    const code: ErrorCode | string = item.code;
    console.log(code, item.field, item.index);
  }
}
// @ts-expect-error: a report's score is a number.
const wrong: string = report.score;
console.log(points, later, wrong);
