import { MongoNetworkError } from 'mongodb';
// The driver's wire connection is not part of its public API; the fix below must patch it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Connection } = require('mongodb/lib/cmap/connection') as {
  Connection?: { prototype: Record<string, unknown> };
};

/**
 * The MongoDB driver (6.20, and its main branch as of 7.5) can wait forever on a connection whose
 * database died: docs/adr/015, "The activity log stops after a FerretDB kill".
 *
 * When the server goes away, Node destroys the socket (the peer's FIN, then our own end) and emits
 * 'close' only in a later turn of the event loop. A command written in between finds the connection
 * still open (the driver closes it on 'close'), `socket.write` refuses the bytes silently (a
 * destroyed stream emits no 'error'), and the driver awaits 'drain', which a destroyed socket never
 * emits; closing the connection afterwards does not end that wait either. When the command is the
 * server monitor's heartbeat, the monitor never checks again: the server stays Unknown and every
 * operation fails server selection until the process restarts (the chaos run saw it in activity,
 * then in orders).
 *
 * writeCommand here refuses a destroyed socket at once and ends a pending wait for 'drain' when the
 * socket closes, both with the network error the driver uses for a closed connection, so the pool
 * is cleared and the monitor's next check runs as it does for any other dropped connection.
 */
type WriteCommand = (this: WireConnection, command: unknown, options: unknown) => Promise<void>;
interface WireConnection {
  id: number | '<monitor>';
  address: string;
  socket: import('node:net').Socket;
  error?: Error;
  onError(error: Error): void;
}

/** On the patched writeCommand: the driver's own, which removeMongoSocketFix puts back. */
const ORIGINAL = Symbol.for('qm.mongoSocketCloseFix.original');
type Patched = WriteCommand & { [ORIGINAL]?: WriteCommand };

export function applyMongoSocketFix(): void {
  const proto = Connection?.prototype;
  const original = proto?.writeCommand as WriteCommand | undefined;
  if (!proto || typeof original !== 'function')
    throw new Error(
      'mongodb: Connection.prototype.writeCommand is gone; check whether the driver now ends a write on a ' +
        'closed socket itself, then update or remove packages/platform/src/store/engine/driver-fix.ts (docs/adr/015, 024)',
    );
  if ((original as Patched)[ORIGINAL]) return;
  const patched: Patched = async function (this, command, options) {
    const closed = () =>
      this.error ?? new MongoNetworkError(`connection ${this.id} to ${this.address} closed`);
    if (this.socket.destroyed) {
      const err = closed();
      this.onError(err);
      throw err;
    }
    let onClose!: () => void;
    const socketClosed = new Promise<never>((_, reject) => {
      onClose = () => reject(closed());
    });
    this.socket.once('close', onClose);
    try {
      return await Promise.race([original.call(this, command, options), socketClosed]);
    } finally {
      this.socket.off('close', onClose);
    }
  };
  patched[ORIGINAL] = original;
  proto.writeCommand = patched;
}

/**
 * Puts the driver's own writeCommand back, for every connection of the process: only for
 * packages/platform/test/mongo-restart.int.test.ts, which shows the driver's failure without the fix
 * (docs/adr/024). Not exported from @qm/platform; connectMongo applies the fix again.
 */
export function removeMongoSocketFix(): void {
  const proto = Connection?.prototype;
  const original = (proto?.writeCommand as Patched | undefined)?.[ORIGINAL];
  if (proto && original) proto.writeCommand = original;
}
