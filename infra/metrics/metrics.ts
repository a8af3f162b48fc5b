import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from sub-millisecond reads to slow uploads. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What a scrape asks the service for, at scrape time. */
export interface MetricSources {
  /** Per read model: events not yet projected and the age of the oldest of them (0 when at the head). */
  projectionLag(): Promise<readonly { readonly projection: string; readonly events: number; readonly seconds: number }[]>;
  /** Per read model: events it could not apply, set aside and not yet skipped or rebuilt (projections/quarantine.ts). */
  quarantinedEvents(): Promise<readonly { readonly projection: string; readonly events: number }[]>;
  /** Per read replica (READ_REPLICA_URLS): in rotation or not, and how far behind the primary. */
  replicaLag?(): readonly { readonly name: string; readonly inRotation: boolean; readonly lagSeconds: number | null; readonly lagBytes: number | null }[];
  /** Work waiting in the process managers' queues. */
  queueDepths(): Promise<{ readonly webhookDeliveries: number; readonly scheduledJobs: number }>;
}

/** The service's Prometheus metrics, one registry per service instance. */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'eventstore_append_duration_seconds',
    help: 'Event store append latency',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: sent, retry (failed, another attempt planned), error (failed for good)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly scheduledJobs = new Counter({
    name: 'scheduler_job_attempts_total',
    help: 'Scheduled job callbacks by outcome: done, retry (failed, rescheduled), dead_letter',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly eventLogAlerts = new Counter({
    name: 'eventlog_alerts_total',
    help: 'Findings about the event log itself, by reason: checkpointRefused (the log did not extend the latest signed checkpoint), guardsMissing, guardsRestored, witnessDiffers, eventForged (an event whose MAC fails, quarantined)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly checkpointWitnessAttempts = new Counter({
    name: 'checkpoint_witness_attempts_total',
    help: 'Checkpoints handed to a witness (dir: CHECKPOINT_WITNESS_DIR, url: CHECKPOINT_WITNESS_URL) by outcome: published, failed (retried)',
    labelNames: ['witness', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly readModelWritesFenced = new Counter({
    name: 'read_model_writes_fenced_total',
    help: 'Read-model writes refused because another instance took the projection lease since this one took it (the late batch of a lost lease; PostgreSQL)',
    registers: [this.registry],
  });

  readonly checkpointWitnessPending = new Gauge({
    name: 'checkpoint_witness_pending',
    help: 'Signed checkpoints a witness has not taken yet',
    labelNames: ['witness'] as const,
    registers: [this.registry],
  });

  /** Builds of typed content tables (projections/content-tables/builder.ts). */
  readonly contentTableBuilds = {
    progress: (fraction: number) => this.contentTableBuildProgress.set(fraction),
    finished: (outcome: 'succeeded' | 'failed' | 'abandoned', count: number) => this.contentTableBuildsTotal.inc({ outcome }, count),
  };

  private readonly contentTableBuildProgress = new Gauge({
    name: 'content_table_build_progress',
    help: 'Progress (0 to 1, by log position) of the running or last build of typed content tables',
    registers: [this.registry],
  });

  private readonly contentTableBuildsTotal = new Counter({
    name: 'content_table_builds_total',
    help: 'Typed content tables built by replay, by outcome: succeeded (switched in), abandoned (the fields changed again), failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private lag: { at: number; value: ReturnType<MetricSources['projectionLag']> } | null = null;

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    // Both lag gauges read one measurement per scrape.
    const projectionLag = () => {
      if (!this.lag || Date.now() - this.lag.at > 1000) this.lag = { at: Date.now(), value: sources.projectionLag() };
      return this.lag.value;
    };
    const replicas = () => sources.replicaLag?.() ?? [];
    new Gauge({
      name: 'read_replica_lag_seconds',
      help: 'How long ago the primary was at a position the read replica has not replayed yet (0: caught up); absent while unreachable',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const replica of replicas()) if (replica.lagSeconds !== null) this.set({ replica: replica.name }, replica.lagSeconds);
      },
    });
    new Gauge({
      name: 'read_replica_lag_bytes',
      help: 'WAL bytes the read replica had not replayed at its last probe; absent while unreachable',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const replica of replicas()) if (replica.lagBytes !== null) this.set({ replica: replica.name }, replica.lagBytes);
      },
    });
    new Gauge({
      name: 'read_replica_in_rotation',
      help: '1 while read-model queries may go to the read replica, 0 while they go to the primary (unreachable, lagging past READ_REPLICA_MAX_LAG_MS, or behind a write)',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const replica of replicas()) this.set({ replica: replica.name }, replica.inRotation ? 1 : 0);
      },
    });
    new Gauge({
      name: 'projection_lag_events',
      help: 'Events in the log that a read model has not projected yet (counted up to 1,000)',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const lag of await projectionLag()) this.set({ projection: lag.projection }, lag.events);
      },
    });
    new Gauge({
      name: 'projection_lag_seconds',
      help: 'Age of the oldest event a read model has not projected yet; 0 at the head',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const lag of await projectionLag()) this.set({ projection: lag.projection }, lag.seconds);
      },
    });
    new Gauge({
      name: 'projection_quarantined_events',
      help: 'Events a read model could not apply and went on without, not yet skipped by an operator or applied by a rebuild (GET /admin/projections/quarantine)',
      labelNames: ['projection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const entry of await sources.quarantinedEvents()) this.set({ projection: entry.projection }, entry.events);
      },
    });
    new Gauge({
      name: 'process_queue_depth',
      help: 'Work waiting: webhook deliveries not yet settled, scheduled jobs pending or firing',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        const depths = await sources.queueDepths();
        this.set({ queue: 'webhook_deliveries' }, depths.webhookDeliveries);
        this.set({ queue: 'scheduled_jobs' }, depths.scheduledJobs);
      },
    });
  }
}
