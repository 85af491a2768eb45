'use strict';
// @platform-score/node: the addon (loaded by native.js, which `napi build` generates) and the
// helper functions it calls to read profiles and build reports (score_helpers.mjs, generated
// from score-core's definitions when the package is built). Handing them over here, once per
// realm, means nothing is compiled from text at run time. ScoreError, the class of every error
// the package throws, is the helper module's, so `instanceof` works in every realm that loads it.
const native = require('./native.js');
const { makeReportBuilder, makeProfileGather, ScoreError } = require('./score_helpers.mjs');

native.installHelpers(makeReportBuilder, makeProfileGather, ScoreError);

/** Profiles per part of scoreManyAsync: large enough that a part's N-API calls and its task
 * cost little per profile, small enough that the event loop runs between parts. */
const PART = 4096;

/**
 * scoreMany off the event loop: the array is read in parts of PART profiles (on this thread:
 * JS objects can only be read here), each part scored on libuv's thread pool and its reports
 * built when it comes back, two parts in flight, so that this thread reads and builds while the
 * pool scores. Same results, errors and `errors` option as scoreMany; the first bad profile
 * rejects (errors: "throw"), with its index. The array is copied first; do not change the
 * profiles themselves until the promise settles.
 */
async function scoreManyAsync(profiles, options) {
  // The first part checks the arguments (a ScoreError thrown here rejects the promise).
  const first = native.scoreManyPart(profiles, options, 0, PART);
  first.catch(() => {}); // awaited below; no unhandled rejection meanwhile
  const all = profiles.length > PART ? profiles.slice() : profiles;
  const n = all.length;
  let next = PART;
  const start = () => {
    const part = native.scoreManyPart(all, options, next, next + PART);
    part.catch(() => {});
    next += PART;
    return part;
  };
  const pending = [first];
  if (next < n) pending.push(start());
  const out = [];
  while (pending.length > 0) {
    const part = await pending.shift();
    if (next < n) pending.push(start());
    for (let i = 0; i < part.length; i++) out.push(part[i]);
  }
  return out;
}

// One `exports.name =` per export (not `module.exports = {...}`), so that Node finds the
// named exports of `import { score } from '@platform-score/node'` (cjs-module-lexer).
exports.MODEL_VERSION = native.MODEL_VERSION;
exports.VERSION = native.VERSION;
exports.ScoreError = ScoreError;
exports.Calibration = native.Calibration; // the market's figures (score-core's calibration)
exports.score = native.score;
exports.scoreJson = native.scoreJson;
exports.scoreMany = native.scoreMany;
exports.scoreManyAsync = scoreManyAsync;
exports.scoreAsync = native.scoreAsync;
exports.readCfdi = native.readCfdi; // payroll receipts (score-docs)
exports.CertificadosSat = native.CertificadosSat; // the CA certificates receipts are chained to
exports.profileFromCfdi = native.profileFromCfdi;
