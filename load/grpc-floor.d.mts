/** Types of grpc-floor.mjs for the TypeScript load scripts. */
export function floorPeer(request?: Buffer): Promise<{
  call(): Promise<Buffer>;
  ask(what: 'cpu' | undefined, key: string): Promise<unknown>;
  close(): void;
}>;
