import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * A real service as a child process (TypeScript through tsx's loader, in one process, so that
 * SIGKILL kills the service itself), for crash tests; resolves once it logs `<name> service ready`.
 */
export async function startServiceProcess(name: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${name}/src/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    lines.on('line', (line) => {
      if (line.includes(`${name} service ready`)) resolve();
    });
  });
  return child;
}
