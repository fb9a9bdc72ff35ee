// Load, benchmarks and seeds go to this machine only: a stray URL in the environment must not load,
// measure or write to someone else's server. CommonJS, so that the CommonJS TypeScript scripts can
// require it as well as the .mjs scripts import it.
'use strict';

/** Any scheme, optional credentials, a loopback host, an optional port, then a path or the end. */
const LOOPBACK = /^[a-z][a-z0-9+.-]*:\/\/([^@/]*@)?(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?([/?#]|$)/i;

/** Throws unless every URL given is on loopback; empty or missing ones (options not set) pass. */
function loopbackOnly(...urls) {
  for (const url of urls)
    if (url && !LOOPBACK.test(url)) throw new Error(`refusing to reach anything but loopback: ${url}`);
}

module.exports = { LOOPBACK, loopbackOnly };
