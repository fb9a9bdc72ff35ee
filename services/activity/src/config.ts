import { z } from 'zod';

/** The activity service's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const activityEnv = {
  /** An activity's email is looked up in identity (LookupUser) when it is stored. */
  IDENTITY_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50051'),
  /** Deadline of each call to identity. */
  ACTIVITY_CALL_DEADLINE_MS: z.coerce.number().int().min(100).default(5000),
  /**
   * How long a batch of activity records waits for others to join it before it is stored (0: each as
   * it comes). Nobody waits on a record; events that share a batch share its writes (docs/adr/019).
   */
  ACTIVITY_GATHER_MS: z.coerce.number().int().min(0).max(5_000).default(250),
  /** The durable consumer of activity.recorded (tests give their own). */
  ACTIVITY_DURABLE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('activity-store'),
};
