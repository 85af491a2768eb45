'use strict';
// @platform-score/node: the addon (loaded by native.js, which `napi build` generates) and the
// helper functions it calls to read profiles and build reports (score_helpers.mjs, generated
// from score-core's definitions when the package is built). Handing them over here, once per
// realm, means nothing is compiled from text at run time.
const native = require('./native.js');
const { makeReportBuilder, makeProfileGather } = require('./score_helpers.mjs');

native.installHelpers(makeReportBuilder, makeProfileGather);

module.exports = {
  MODEL_VERSION: native.MODEL_VERSION,
  VERSION: native.VERSION,
  score: native.score,
  scoreJson: native.scoreJson,
  scoreMany: native.scoreMany,
  scoreAsync: native.scoreAsync,
  readCfdi: native.readCfdi, profileFromCfdi: native.profileFromCfdi, // payroll receipts (score-docs)
};
