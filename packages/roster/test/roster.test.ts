// Every place that lists the services by hand must agree with roster.json. Each test names the file
// to fix; changing the roster means changing these places in the same commit.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SERVICES, STREAMS, serviceDefaults, serviceOf, streamOf } from '../src';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const names = (entries: readonly { name: string }[]) => entries.map((e) => e.name);
const built = SERVICES.filter((s) => !s.planned);

interface ChartService {
  enabled?: boolean;
  port?: number;
  kind?: string;
  image?: { repository?: string };
}

describe('roster.json', () => {
  it('names each service once, in the port order of docs/CONVENTIONS.md', () => {
    expect(new Set(names(SERVICES)).size).toBe(SERVICES.length);
    const ports = SERVICES.map((s) => s.grpcPort);
    expect(ports).toEqual([...new Set(ports)].sort((a, b) => a - b));
    for (const s of SERVICES) expect(s.name).toMatch(/^[a-z][a-z0-9]*$/);
  });

  it('follows the naming conventions for contracts, databases and streams', () => {
    for (const s of SERVICES) {
      expect(s.protoService.startsWith(`qm.${s.name}.v1.`)).toBe(true);
      expect(s.database).toBe(`qm_${s.name}`);
      if (s.stream)
        expect(s.stream).toEqual({ name: `QM_${s.name.toUpperCase()}`, subjects: [`${s.name}.>`] });
    }
  });

  it('derives the streams and the defaults a service hands @qm/platform', () => {
    expect(names(STREAMS)).toContain('QM_ACTIVITY');
    expect(streamOf('identity')).toEqual({ name: 'QM_IDENTITY', subjects: ['identity.>'] });
    expect(serviceDefaults('catalog')).toEqual({
      name: 'catalog',
      defaultGrpcPort: 50052,
      defaultDatabase: 'qm_catalog',
      streams: STREAMS,
    });
    expect(() => serviceOf('billing')).toThrow('"billing" is not in packages/roster/roster.json');
  });
});

describe('the places that list the services agree with roster.json', () => {
  it('services/*: a service has code exactly when the roster does not mark it planned', () => {
    const dirs = readdirSync(path.join(ROOT, 'services')).filter((d) =>
      existsSync(path.join(ROOT, 'services', d, 'package.json')),
    );
    const withCode = dirs.filter((d) => existsSync(path.join(ROOT, 'services', d, 'src/main.ts')));
    expect(dirs.filter((d) => !names(SERVICES).includes(d))).toEqual([]);
    expect(withCode.sort()).toEqual(names(built).sort());
  });

  it('proto/qm/*: every gRPC service is in the roster, and every built service has its contract', () => {
    const declared: string[] = [];
    for (const pkg of readdirSync(path.join(ROOT, 'proto/qm'))) {
      const dir = path.join('proto/qm', pkg, 'v1');
      for (const file of readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.proto'))) {
        const text = read(path.join(dir, file));
        const protoPackage = /^package\s+([\w.]+)\s*;/m.exec(text)?.[1];
        for (const m of text.matchAll(/^service\s+(\w+)\s*\{/gm)) declared.push(`${protoPackage}.${m[1]}`);
      }
    }
    const rostered = SERVICES.map((s) => s.protoService);
    expect(declared.filter((d) => !rostered.includes(d))).toEqual([]);
    expect(built.map((s) => s.protoService).filter((p) => !declared.includes(p))).toEqual([]);
  });

  it('charts/quartermaster/values.yaml: one entry per service, its port, enabled unless planned', () => {
    const services = parse(read('charts/quartermaster/values.yaml')).services as Record<string, ChartService>;
    const { gateway, ...grpc } = services;
    expect(gateway?.kind).toBe('http');
    expect(Object.keys(grpc)).toEqual(names(SERVICES));
    for (const s of SERVICES)
      expect({ name: s.name, ...grpc[s.name] }).toMatchObject({
        name: s.name,
        enabled: !s.planned,
        port: s.grpcPort,
        kind: 'grpc',
        image: { repository: `quartermaster/${s.name}` },
      });
  });

  it.each(['values-minimal.yaml', 'values-production.yaml'])(
    'charts/quartermaster/%s: configures only services of the roster',
    (file) => {
      const services = parse(read(`charts/quartermaster/${file}`)).services ?? {};
      const known = ['gateway', ...names(SERVICES)];
      expect(Object.keys(services).filter((n) => !known.includes(n))).toEqual([]);
    },
  );

  it('docs/CONVENTIONS.md: the ports table has a row per service with its port', () => {
    const rows = [
      ...read('docs/CONVENTIONS.md').matchAll(/^\|\s*gRPC (\w+)( \(planned\))?\s*\|\s*(\d+)\s*\|$/gm),
    ];
    expect(rows.map(([, name, planned, port]) => ({ name, planned: !!planned, port: Number(port) }))).toEqual(
      SERVICES.map((s) => ({ name: s.name, planned: !!s.planned, port: s.grpcPort })),
    );
  });
});
