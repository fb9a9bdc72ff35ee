import {
  ChannelCredentials,
  credentials,
  loadPackageDefinition,
  type ServiceClientConstructor,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';
import { channelTarget } from './client';

let HealthClient: ServiceClientConstructor | undefined;

/**
 * Asks a server's standard health service whether it serves; resolves false on any failure. Of a
 * list of replicas, the first that answers is asked.
 */
export function checkHealth(address: string, timeoutMs = 1000, service = ''): Promise<boolean> {
  if (!HealthClient) {
    const pkg = loadPackageDefinition(loadSync(protoPath, { keepCase: true, enums: String })) as unknown as {
      grpc: { health: { v1: { Health: ServiceClientConstructor } } };
    };
    HealthClient = pkg.grpc.health.v1.Health;
  }
  const client = new HealthClient(channelTarget(address), credentials.createInsecure() as ChannelCredentials);
  return new Promise((resolve) => {
    (client as unknown as { check: Function }).check(
      { service },
      { deadline: Date.now() + timeoutMs },
      (err: Error | null, res: { status?: string } | undefined) => {
        client.close();
        resolve(!err && res?.status === 'SERVING');
      },
    );
  });
}
