// Console output of the stack: coloured `[name]` prefixes and the orchestrator's own messages.
const useColour = !process.env.NO_COLOR && (process.stdout.isTTY || !!process.env.FORCE_COLOR);
const PALETTE = [36, 32, 33, 35, 34, 96, 92, 93, 95, 94, 91];
const RESET = '\x1b[0m';

export const paint = (code, text) => (useColour ? `\x1b[${code}m${text}${RESET}` : text);
export const bold = (t) => paint(1, t);
export const dim = (t) => paint(2, t);
export const red = (t) => paint(31, t);
export const green = (t) => paint(32, t);
export const yellow = (t) => paint(33, t);
export const cyan = (t) => paint(36, t);

let next = 0;
const assigned = new Map();
/** A stable colour per process name, so `[nats]` looks the same on every line. */
export function colourFor(name) {
  if (!assigned.has(name)) assigned.set(name, PALETTE[next++ % PALETTE.length]);
  return assigned.get(name);
}

let width = 8;
/** Widens the prefix column to fit the longest name, so the log lines align. */
export function reservePrefixWidth(names) {
  width = Math.max(width, ...names.map((n) => n.length));
}

export function prefix(name) {
  return paint(colourFor(name), `[${name}]`.padEnd(width + 2));
}

/** The orchestrator's own logger; tests pass `quiet` to keep jest output clean. */
export function createLogger({ quiet = false } = {}) {
  const tag = () => paint(1, '[stack]'.padEnd(width + 2));
  return {
    info: (msg) => !quiet && console.log(`${tag()} ${msg}`),
    ok: (msg) => !quiet && console.log(`${tag()} ${green(msg)}`),
    warn: (msg) => console.warn(`${tag()} ${yellow(msg)}`),
    error: (msg) => console.error(`${tag()} ${red(msg)}`),
  };
}
