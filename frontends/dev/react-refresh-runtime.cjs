// Dev only. Every frontend's `react-refresh/runtime` resolves here (see rspack.shared.mjs), so the shell and
// the remotes share ONE Fast Refresh runtime on the page: React registers its renderer with the first runtime
// injected (the shell's); a remote with its own copy would never learn about the renderer and could not
// hot-update its components.
const KEY = '__QM_REACT_REFRESH_RUNTIME__';
if (!globalThis[KEY]) {
  globalThis[KEY] = require('react-refresh/cjs/react-refresh-runtime.development.js');
}
module.exports = globalThis[KEY];
