import type { Request, RequestHandler, Response } from 'express';
import { workspacePrincipal } from './auth';
import { KeyedConcurrencyGate } from './concurrency-gate';

/** Limits on one workspace's costly reads at once (READS_PER_WORKSPACE and its queue settings). */
export interface WorkspaceReadLimits {
  readonly max: number;
  readonly queue: number;
  readonly maxWaitMs: number;
}

/** Wraps a read handler so that it takes one of its workspace's places (after the access guard). */
export type WorkspaceReads = (handler: (req: Request, res: Response) => Promise<void>) => RequestHandler;

/**
 * Content queries (search, ids, aggregates) and feeds (audit, history) take one place of the
 * workspace of the key that sent them, so that one workspace's legal but slow queries hold
 * at most its share of the read pool and the others' reads find a connection.
 */
export function workspaceReads(limits: WorkspaceReadLimits): WorkspaceReads {
  const gate = new KeyedConcurrencyGate({
    ...limits,
    subject: `too many costly reads (content queries, audit, history) of this workspace at once (READS_PER_WORKSPACE=${limits.max}, READ_QUEUE_PER_WORKSPACE=${limits.queue}, READ_QUEUE_WAIT_MS=${limits.maxWaitMs})`,
  });
  return (handler) => gate.gated((res) => workspacePrincipal(res).workspaceId, handler);
}
