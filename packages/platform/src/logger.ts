import pino, { type Logger } from 'pino';
import { currentContext } from './context';

/** JSON logs; every line carries the request id and caller of the work it belongs to. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = currentContext();
      return ctx ? { requestId: ctx.requestId, userId: ctx.caller?.userId } : {};
    },
  });
}

export type { Logger };
