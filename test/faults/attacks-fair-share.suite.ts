import { client, type Answer } from '../support/http';
import { type Engine, startTestService, type TestService } from '../support/service';
import { type Bystander, createBystander, LOAD_SLACK_MS, type LatencySample, measureWhile } from '../support/tenant-latency';
import { delay } from '../support/waiting';

const READS = 2;
const QUEUE = 2;
const ITEMS = 2;
/** How long each phase floods; the bystander probes throughout. */
const PHASE_MS = 6000;

const articleType = { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }] };
/** A legal but slow query: a 200-character contains over ITEMS values of 10,000 characters, matching none. */
const slowQuery = { filter: { type: 'condition', fieldKey: 'title', operator: 'contains', value: `${'a'.repeat(199)}b` } };

/**
 * One workspace's many legal slow queries at once must not stall the others: each workspace
 * has READS_PER_WORKSPACE places for its costly reads, a short queue, then 503 with
 * Retry-After. The bystander's baseline is its latency while the flooder uses exactly its
 * share (its places and its queue, none refused); while the flooder sends ten times as many
 * queries at once, the bystander stays within twice that.
 */
export function describeFairShare(engine: Engine): void {
  describe(`costly reads per workspace (${engine})`, () => {
    let service: TestService;
    let bystander: Bystander;
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      // Query results are not cached, so each query reaches the store (documents by id, keys among them, still are).
      service = await startTestService(engine, {
        QUERY_CACHE: 'false',
        READS_PER_WORKSPACE: String(READS),
        READ_QUEUE_PER_WORKSPACE: String(QUEUE),
        READ_QUEUE_WAIT_MS: '10000',
      });
      api = client(service.url);
      bystander = await createBystander(service.url);
      for (const writeKey of [service.writeKey, bystander.writeKey]) expect((await api('PUT', '/content-types', { key: writeKey, body: articleType })).status).toBe(200);
      for (let index = 0; index < ITEMS; index++) {
        expect((await api('PUT', '/v2/contents/Article', { key: service.writeKey, body: { fields: { title: 'a'.repeat(10_000) } } })).status).toBe(200);
      }
      expect((await api('PUT', '/v2/contents/Article', { key: bystander.writeKey, body: { fields: { title: 'mine' } } })).status).toBe(200);
    }, 120_000);

    afterAll(() => service?.close());

    /** `clients` clients sending the slow query one after another for PHASE_MS; every answer. */
    const flood = async (clients: number): Promise<Answer[]> => {
      const answers: Answer[] = [];
      const until = Date.now() + PHASE_MS;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (Date.now() < until) {
            const answer = await api('POST', '/v2/contents/Article', { key: service.readKey, body: slowQuery });
            answers.push(answer);
            // Refused clients wait as told: a flood of requests per second is the rate limiter's business (RATE_LIMIT_PER_SECOND), not the gate's.
            if (answer.status === 503) await delay(Number(answer.headers.get('retry-after')) * 1000);
          }
        }),
      );
      return answers;
    };
    const bystanderWhile = (attack: () => Promise<Answer[]>) =>
      measureWhile(service.url, { method: 'POST', path: '/v2/contents/Article', key: bystander.readKey, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: 'mine' } } }, attack);

    it('holds a flooding workspace to its share: the excess is answered 503 with Retry-After, the bystander stays within twice its baseline', async () => {
      const fair = await bystanderWhile(() => flood(READS + QUEUE));
      expect(fair.attack.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);

      const flooded = await bystanderWhile(() => flood(10 * (READS + QUEUE)));
      const statuses = flooded.attack.map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      const refused = flooded.attack.filter((answer) => answer.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect((answer.body as { detail: string }).detail).toContain(`READS_PER_WORKSPACE=${READS}`);
      }
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);

      const report = (sample: LatencySample) => ({ count: sample.count, p50Ms: Math.round(sample.p50Ms), p95Ms: Math.round(sample.p95Ms), p99Ms: Math.round(sample.p99Ms) });
      expect(flooded.latency.statuses.filter((status) => status !== 200)).toEqual([]);
      // PGlite runs every query on its one connection, so what the gate keeps is the bystander's usual wait (the flooder's
      // queries in that queue stay at its share); its p99, a few dozen samples there, is the slowest one a parallel suite
      // delayed. A pool (PostgreSQL) runs the bystander beside the flooder's share: there its p95 holds. Not its p99: of
      // about 200 samples that is the second slowest, and in CI the suite beside this one has delayed two by 470 ms
      // (2026-11-29), while a bystander waiting behind the flood would be slow on most of its samples.
      const within = (during: number, before: number) => during <= Math.max(2 * before, before + LOAD_SLACK_MS);
      const held = engine === 'pglite' ? within(flooded.latency.p50Ms, fair.latency.p50Ms) : within(flooded.latency.p95Ms, fair.latency.p95Ms);
      expect({ baseline: report(fair.latency), flooded: report(flooded.latency), unheld: held }).toEqual({ baseline: report(fair.latency), flooded: report(flooded.latency), unheld: true });
    }, 60_000);
  });
}
