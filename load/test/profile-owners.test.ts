import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CpuProfile, ownersReport, profileOwners } from '../lib/profile-owners.cjs';

/** A service bundle as esbuild writes it: a `// <path>` line before each module. */
function bundle(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'qm-owners-'));
  mkdirSync(path.join(dir, 'dist'));
  const file = path.join(dir, 'dist', 'main.js');
  writeFileSync(
    file,
    [
      '"use strict";', // line 0: before any module
      '// node_modules/mongodb/lib/cmap/connection.js',
      'function writeCommand() {}',
      '// packages/platform/src/mongo.ts',
      'function changeBuilt() {}',
      '// services/orders/src/app/saga.ts',
      'function drive() {}',
    ].join('\n'),
  );
  return pathToFileURL(file).href;
}

/**
 * root → the saga (ours) → changeBuilt (ours) → the driver's writeCommand (bundled) → Node's
 * writeBuffer; root → an unbundled library (nats) → Node's code; and the runtime's own frames.
 */
function profile(url: string): CpuProfile {
  const frame = (id: number, functionName: string, url = '', lineNumber = -1, children: number[] = []) => ({
    id,
    callFrame: { functionName, url, lineNumber },
    children,
  });
  const natsUrl = pathToFileURL('/srv/node_modules/nats/lib/nats-base-client/protocol.js').href;
  return {
    nodes: [
      frame(1, '(root)', '', -1, [2, 6, 8, 9, 10, 11]),
      frame(2, 'drive', url, 6, [3]),
      frame(3, 'changeBuilt', url, 4, [4]),
      frame(4, 'writeCommand', url, 2, [5]),
      frame(5, 'writeBuffer'),
      frame(6, 'processInbound', natsUrl, 10, [7]),
      frame(7, 'emit', 'node:events', 400),
      frame(8, '(garbage collector)'),
      frame(9, '(program)'),
      frame(10, '(idle)'),
      // The same saga unbundled, as the development stack runs it (tsx).
      frame(11, 'drive', pathToFileURL('/srv/qm/services/orders/src/app/saga.ts').href, 40),
    ],
    // Microseconds: the saga 100 (and 60 unbundled), changeBuilt 50, the driver 300 (its write
    // included), nats 150, GC 200, V8 100, idle 9,999 (not counted).
    samples: [2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11],
    timeDeltas: [100, 50, 100, 100, 100, 100, 50, 200, 100, 9_999, 60],
  };
}

describe('profileOwners (load/cpu-profile.mjs: whose time a profile is)', () => {
  it('gives a sample to the nearest frame up its stack that is ours or a library’s, placing bundled code by its module', () => {
    const { owners, shares } = profileOwners(profile(bundle()));
    expect(Object.fromEntries(owners)).toEqual({
      'ours:services/orders': 160,
      'ours:packages/platform': 50,
      mongodb: 300,
      nats: 150,
      '(garbage collector)': 200,
      '(program)': 100,
    });
    expect(shares).toEqual({ ours: 210, carriers: 450, libraries: 0, runtime: 300 });
  });

  it('reports the four shares of the busy time, then the owners', () => {
    const lines = ownersReport(profileOwners(profile(bundle())), 2);
    expect(lines[0]).toBe(
      "our code  21.9 %, the messages' libraries  46.9 %, other libraries   0.0 %, the runtime  31.3 % (of 1 ms busy)",
    );
    expect(lines.slice(1)).toEqual([' 31.3 %  mongodb (carriers)', ' 20.8 %  (garbage collector) (runtime)']);
  });
});
