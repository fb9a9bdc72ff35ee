#!/usr/bin/env node
// Bundles a deployable (the gateway or a service) into one CommonJS file, <dir>/dist/main.js,
// for Node 20. Workspace packages (@qm/*) are bundled in from their TypeScript source; every
// third-party package stays external and is installed in the image by
// `npm ci --omit=dev --workspace <dir>`. After bundling, each external package is checked to be
// a production dependency of the target or of a workspace package it uses, so the image cannot
// start with "Cannot find module".
//
// Usage: node scripts/bundle.mjs [--strict] [target ...]
//   target: gateway | identity | catalog | ... | all (default: all deployables)
//   --strict: a missing src/main.ts is an error (the Dockerfile uses this); otherwise it is skipped.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE_SCOPE = '@qm/';
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Directory (relative to the root) of a deployable: `gateway`, or `services/<name>`. */
export function targetDir(target) {
  return target === 'gateway' ? 'gateway' : path.posix.join('services', target);
}

export function allTargets() {
  const services = existsSync(path.join(ROOT, 'services'))
    ? readdirSync(path.join(ROOT, 'services'), { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(path.join(ROOT, 'services', d.name, 'package.json')))
        .map((d) => d.name)
        .sort()
    : [];
  return ['gateway', ...services];
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Map of workspace package name -> its package.json, for every workspace folder of the root. */
function workspacePackages() {
  const rootPkg = readJson(path.join(ROOT, 'package.json'));
  const byName = new Map();
  for (const pattern of rootPkg.workspaces ?? []) {
    const dirs = pattern.endsWith('/*')
      ? existsSync(path.join(ROOT, pattern.slice(0, -2)))
        ? readdirSync(path.join(ROOT, pattern.slice(0, -2))).map((d) => path.join(pattern.slice(0, -2), d))
        : []
      : [pattern];
    for (const dir of dirs) {
      const file = path.join(ROOT, dir, 'package.json');
      if (existsSync(file)) byName.set(readJson(file).name, readJson(file));
    }
  }
  return byName;
}

/**
 * Third-party packages the target may import at run time: its own dependencies plus those of the
 * workspace packages it depends on (transitively), since those are bundled into the same file.
 */
function runtimeDependencies(pkg, workspaces) {
  const allowed = new Set();
  const seen = new Set();
  const visit = (p) => {
    if (seen.has(p.name)) return;
    seen.add(p.name);
    for (const dep of Object.keys({ ...p.dependencies, ...p.peerDependencies })) {
      if (dep.startsWith(WORKSPACE_SCOPE) && workspaces.has(dep)) visit(workspaces.get(dep));
      else allowed.add(dep);
    }
  };
  visit(pkg);
  return allowed;
}

/** The node_modules folder Node would find package `name` in, looking up from `dir` (null: none). */
function packageHome(dir, name) {
  for (let d = dir; d.startsWith(ROOT); d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules', name))) return path.join(d, 'node_modules');
    if (d === ROOT) break;
  }
  return null;
}

/**
 * esbuild plugin: bundle relative imports and @qm/* workspace packages; keep third-party packages
 * external, to be installed beside the bundle, where `<target>/dist/main.js` finds them in the
 * target's or the root's node_modules. A package the importing source finds somewhere else (a
 * workspace package's own nested copy, npm's answer to a version conflict: @qm/platform's
 * OpenTelemetry and nodemailer) would be missed or be another version from dist/, so it is bundled.
 */
function externalizeThirdParty(distDir) {
  return {
    name: 'externalize-third-party',
    setup(build) {
      build.onResolve({ filter: /^[^./#]/ }, (args) => {
        if (args.kind === 'entry-point' || path.isAbsolute(args.path)) return undefined;
        if (args.path.startsWith(WORKSPACE_SCOPE)) return undefined; // bundled from source
        const name = packageName(args.path);
        if (builtins.has(args.path) || builtins.has(name)) return { path: args.path, external: true };
        const seen = packageHome(args.resolveDir, name);
        if (seen && seen !== packageHome(distDir, name)) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

export async function bundle(target, { strict = false, quiet = false } = {}) {
  const dir = targetDir(target);
  const entry = path.join(ROOT, dir, 'src', 'main.ts');
  const pkgFile = path.join(ROOT, dir, 'package.json');
  if (!existsSync(pkgFile) || !existsSync(entry)) {
    const message = `bundle: ${target}: ${path.relative(ROOT, existsSync(pkgFile) ? entry : pkgFile)} does not exist`;
    if (strict) throw new Error(message);
    console.log(`${message}, skipped`);
    return { target, skipped: true };
  }
  const outfile = path.join(ROOT, dir, 'dist', 'main.js');
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: ROOT,
    plugins: [externalizeThirdParty(path.dirname(outfile))],
  });

  const pkg = readJson(pkgFile);
  const allowed = runtimeDependencies(pkg, workspacePackages());
  // What the output still imports (inputs also list type-only imports that esbuild dropped).
  const output = result.metafile.outputs[path.relative(ROOT, outfile)];
  const externals = new Set(
    output.imports
      .filter((imp) => imp.external && !builtins.has(imp.path) && !imp.path.startsWith('<'))
      .map((imp) => packageName(imp.path)),
  );
  const undeclared = [...externals].filter((name) => !allowed.has(name)).sort();
  if (undeclared.length) {
    throw new Error(
      `bundle: ${target} imports ${undeclared.join(', ')} which ${undeclared.length > 1 ? 'are' : 'is'} not in the ` +
        `dependencies of ${pkg.name} or of the @qm/* packages it uses; the image would not install ` +
        `${undeclared.length > 1 ? 'them' : 'it'}`,
    );
  }
  const size = output.bytes;
  if (!quiet) {
    console.log(
      `bundle: ${target} -> ${path.relative(ROOT, outfile)} (${(size / 1024).toFixed(0)} KiB; external: ${
        [...externals].sort().join(', ') || 'none'
      })`,
    );
  }
  return { target, outfile, externals: [...externals].sort() };
}

async function main(argv) {
  const strict = argv.includes('--strict');
  const names = argv.filter((a) => !a.startsWith('--'));
  const targets = names.length === 0 || names.includes('all') ? allTargets() : names;
  let failed = 0;
  for (const target of targets) {
    try {
      await bundle(target, { strict });
    } catch (err) {
      failed++;
      console.error(err.errors ? `bundle: ${target} failed` : err.message);
    }
  }
  if (failed) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
