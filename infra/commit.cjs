// The commit a stage is packaged from, its stack's output Commit: 'unknown' outside a git checkout
// (or without git).
const { spawnSync } = require('node:child_process');

module.exports = () =>
  spawnSync('git', ['rev-parse', 'HEAD'], { cwd: __dirname, encoding: 'utf8' }).stdout?.trim() ||
  'unknown';
