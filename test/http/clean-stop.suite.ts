import { randomUUID } from 'node:crypto';
import { systemClock } from '../../infra/clock';
import type { AppendRequest } from '../../infra/eventstore/port';
import { readModelProjectors } from '../../projections/read-models';
import { projectionStatuses } from '../../projections/status';
import { withStores } from '../../src/cli/stores';
import { loadConfig } from '../../src/config';
import { TOKENS } from '../../src/container';
import { type Engine, startTestService } from '../support/service';

/** More events than the read models take in the moments a stop needs without waiting (without the wait, PGlite was behind at 600 and PostgreSQL at 2,000), and few enough for its 5 s wait (it took 0.1 s and 1 s). */
const EVENTS: Record<Engine, { streams: number; perStream: number }> = { pglite: { streams: 6, perStream: 100 }, postgres: { streams: 20, perStream: 100 } };

export function describeCleanStop(engine: Engine): void {
  describe(`a clean stop (${engine})`, () => {
    it('projects the events appended just before it into every read model before stopping them', async () => {
      const test = await startTestService(engine);
      try {
        const metadata = { workspaceId: test.workspaceId, actor: 'system', correlationId: randomUUID(), timestamp: new Date().toISOString() };
        // Appended at once, as a process manager's last work would be just before the stop.
        const { streams, perStream } = EVENTS[engine];
        const requests: AppendRequest[] = Array.from({ length: streams }, (_, stream) => ({
          stream: `clean-stop-${stream}-${randomUUID()}`,
          expectedRevision: 'no_stream',
          events: Array.from({ length: perStream }, (_, index) => ({ type: 'CleanStopNoted', data: { index }, metadata })),
        }));
        await test.service.container.resolve(TOKENS.eventStore).appendMany(requests);
        await test.service.close();

        const config = loadConfig({ ...test.environment, LOG_LEVEL: 'silent' });
        const report = await withStores(config, 'projections status', (stores) => projectionStatuses(stores.events, stores.readStore, readModelProjectors, systemClock));
        const behind = report.projections.filter((projection) => !projection.atHead).map((projection) => `${projection.name} at ${projection.checkpoint}`);
        expect({ head: report.head, behind }).toEqual({ head: report.head, behind: [] });
      } finally {
        await test.close();
      }
    });
  });
}
