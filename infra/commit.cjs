// The commit a stage is packaged from, its stack's output Commit: 'unknown' outside a git checkout.
const { execSync } = require('node:child_process');

module.exports = () => {
  try {
    return execSync('git rev-parse HEAD', { cwd: __dirname, stdio: 'pipe' }).toString().trim();
  } catch {
    return 'unknown';
  }
};
