import type { Operations, ScheduledJob, ScheduledJobPage, ScheduleJobRequest } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.scheduledJobs;

export type ScheduledJobQuery = Operations['listScheduledJobs']['query'];

/** Deferred and recurring HTTP callbacks. */
export class ScheduledJobsApi {
  constructor(private readonly transport: Transport) {}

  /** The job is Pending; fireAtUtc wins over delaySeconds. */
  schedule(job: ScheduleJobRequest): Promise<ScheduledJob> {
    return this.transport.json(routes.schedule, { body: job });
  }

  /** Earliest planned first; `hasMore` tells whether another page follows. */
  list(query: ScheduledJobQuery = {}): Promise<ScheduledJobPage> {
    return this.transport.json(routes.list, { query });
  }

  get(id: string): Promise<ScheduledJob> {
    return this.transport.json(routes.get, { path: { id } });
  }

  /** Only a Pending job can be cancelled (409 otherwise). */
  cancel(id: string): Promise<ScheduledJob> {
    return this.transport.json(routes.cancel, { path: { id } });
  }
}
