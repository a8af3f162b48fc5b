import { TOTP } from 'otpauth';
import { TOKENS } from '../../src/container';
import { type Answer, call, client } from '../support/http';
import type { Clock } from '../../infra/clock';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { type Bystander, createBystander, measureWhile } from '../support/tenant-latency';

const SERIAL = 'SN-4242';
/** The PIN an attacker found on the 328th guess before the limits (issue 14, finding 5). */
const PIN = '0327';

/**
 * The real clock moved forward at will, and held still while an attack runs: back-off delays
 * then depend on the attack, not on how long a busy machine takes to answer it.
 */
function attackClock(): Clock & { advance(ms: number): void; holdWhile<T>(run: () => Promise<T>): Promise<T> } {
  let offsetMs = 0;
  let heldAt: number | null = null;
  return {
    now: () => new Date((heldAt ?? Date.now()) + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
    holdWhile: async (run) => {
      heldAt = Date.now();
      try {
        return await run();
      } finally {
        offsetMs += heldAt - Date.now();
        heldAt = null;
      }
    },
  };
}

/**
 * The attacks of issue 14 (findings 5, 6 and 9c) replayed against the real service: TOTP
 * replay and brute force, PIN guessing through encrypt/check, reading deleted content
 * through its versions, and another workspace's webhook delivery log.
 */
export function describeSecretAttacks(engine: Engine): void {
  describe(`attacks on secrets and deleted content (${engine})`, () => {
    const clock = attackClock();
    let service: TestService;
    let api: ReturnType<typeof client>;
    let write: { key: string };
    let totpSecret: string;
    let bystander: Bystander;

    /** A fresh read key: each attack starts with its own credential counters. */
    const readKey = async () => {
      const issued = await call(service.url, 'POST', `/admin/workspaces/${service.workspaceId}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: 'attacker', policies: ['ReadAccess'] } });
      return { key: issued.body.key as string };
    };
    /** A fresh item with an encrypted serial and PIN: each attack starts with its own item counters. */
    const vaultItem = async () => {
      const saved = await api('PUT', '/v2/contents/Vault', { ...write, body: { fields: { title: 'vault' } } });
      await api('PUT', '/contents/Vault/encrypt', { ...write, body: { id: saved.body.id, encryptFields: { serial: SERIAL, pin: PIN } } });
      return saved.body.id as string;
    };
    const codeNow = () => new TOTP({ secret: totpSecret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: clock.now().getTime() });
    const wrongCode = (offset: number) => String((Number(codeNow()) + 1 + offset) % 1_000_000).padStart(6, '0');
    /** Moves to a time step no code was used in yet (and past every back-off of an earlier test). */
    const nextStep = () => clock.advance(16 * 60_000);
    const decrypt = (key: { key: string }, id: string, totpCode: string) => api('POST', '/contents/Vault/encrypt/decrypt', { ...key, body: { id, encryptFieldKeys: ['serial'], totpCode } });
    const check = (key: { key: string }, id: string, pin: string) => api('POST', '/contents/Vault/encrypt/check', { ...key, body: { id, encryptFields: { pin } } });
    const recordedAttempts = async (itemId: string) => {
      const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`secretaccess-${service.workspaceId}-${itemId}`);
      return events.map((event) => ({
        ...(event.data as { operation: string; outcome: string; fieldKeys: string[] }),
        actor: event.metadata.actor,
        json: JSON.stringify({ stream: event.stream, data: event.data, metadata: event.metadata }),
      }));
    };
    const expectThrottled = (answer: Answer) => {
      expect(answer.status).toBe(429);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
    };

    beforeAll(async () => {
      service = await startTestService(engine, {}, clock);
      api = client(service.url);
      write = { key: service.writeKey };
      const type = await api('PUT', '/content-types', {
        ...write,
        body: {
          name: 'Vault',
          key: 'Vault',
          fields: [
            { key: 'title', type: 'Text' },
            { key: 'serial', type: 'Encrypted' },
            { key: 'pin', type: 'Encrypted' },
          ],
        },
      });
      expect(type.status).toBe(200);
      totpSecret = (await call(service.url, 'POST', `/admin/workspaces/${service.workspaceId}/totp`, { bearer: ADMIN_TOKEN })).body.secret;
      bystander = await createBystander(service.url);
    }, 120_000);

    afterAll(() => service?.close());

    it('accepts a one-time password once: the same code again, in turn or at once, is refused with 403 and says why', async () => {
      nextStep();
      const [key, id] = [await readKey(), await vaultItem()];
      const code = codeNow();
      expect((await decrypt(key, id, code)).body).toEqual({ fields: { serial: SERIAL } });
      for (const replay of [await decrypt(key, id, code), await decrypt(await readKey(), await vaultItem(), code)]) {
        expect(replay.status).toBe(403);
        expect(replay.body.detail).toMatch(/already been used/);
      }

      nextStep();
      const [keys, racedItem] = [await Promise.all(Array.from({ length: 5 }, readKey)), await vaultItem()];
      const fresh = codeNow();
      const racing = await Promise.all(keys.map((racer) => decrypt(racer, racedItem, fresh)));
      expect(racing.map((answer) => answer.status).sort()).toEqual([200, 403, 403, 403, 403]);
    });

    it('limits wrong codes per item and per credential with doubling back-off (429, Retry-After); a good code waits too', async () => {
      nextStep();
      const [key, id] = [await readKey(), await vaultItem()];
      for (let attempt = 0; attempt < 5; attempt++) expect((await decrypt(key, id, wrongCode(attempt))).status).toBe(403);
      const blocked = await decrypt(await readKey(), id, codeNow());
      expectThrottled(blocked);
      expect(blocked.headers.get('retry-after')).toBe('1');
      clock.advance(1000);
      expect((await decrypt(key, id, wrongCode(5))).status).toBe(403);
      expect((await decrypt(key, id, codeNow())).headers.get('retry-after')).toBe('2');
      clock.advance(2000);
      expect((await decrypt(key, id, codeNow())).body).toEqual({ fields: { serial: SERIAL } });

      // One credential guessing across items: fifty wrong codes are free, the next item waits.
      const [roaming, items] = [await readKey(), await Promise.all(Array.from({ length: 51 }, vaultItem))];
      nextStep();
      for (let item = 0; item < 50; item++) expect((await decrypt(roaming, items[item]!, wrongCode(item))).status).toBe(403);
      expectThrottled(await decrypt(roaming, items[50]!, codeNow()));
    });

    it('stops 500 wrong codes from 50 connections after the free ones, without stalling another workspace', async () => {
      nextStep();
      const [key, id] = [await readKey(), await vaultItem()];
      const guesses = Array.from({ length: 500 }, (_, attempt) => wrongCode(attempt));
      const answers: Answer[] = [];
      const connection = async () => {
        for (let guess = guesses.pop(); guess !== undefined; guess = guesses.pop()) answers.push(await decrypt(key, id, guess));
      };
      const { latency } = await measureWhile(service.url, { path: '/content-types', key: bystander.readKey }, () =>
        clock.holdWhile(() => Promise.all(Array.from({ length: 50 }, connection))),
      );
      const judged = answers.filter((answer) => answer.status === 403);
      expect(judged.length).toBeLessThanOrEqual(5);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(500 - judged.length);
      expect((await recordedAttempts(id)).filter((attempt) => attempt.outcome === 'invalidCode')).toHaveLength(judged.length);
      expect(new Set(latency.statuses)).toEqual(new Set([200]));
      // Refused guesses are answered from memory: the bystander only queues behind them on the event loop.
      expect(latency.maxMs).toBeLessThan(1500);
    });

    it('keeps a 4-digit PIN out of reach of encrypt/check guessing, in turn and in a burst', async () => {
      nextStep();
      const candidates = Array.from({ length: Number(PIN) + 1 }, (_, value) => String(value).padStart(4, '0'));
      const [key, id] = [await readKey(), await vaultItem()];
      const inTurn: Answer<{ match?: boolean }>[] = [];
      await clock.holdWhile(async () => {
        for (const pin of candidates) inTurn.push(await check(key, id, pin));
      });
      expect(inTurn.map((answer) => answer.status)).toEqual([...Array(5).fill(200), ...Array(candidates.length - 5).fill(429)]);
      expectThrottled(inTurn[inTurn.length - 1]!);

      const [burstKey, burstId] = [await readKey(), await vaultItem()];
      const burst = await clock.holdWhile(() => Promise.all(candidates.map((pin) => check(burstKey, burstId, pin))));
      expect(burst.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(5);
      expect(burst.some((answer) => answer.body?.match === true)).toBe(false);
      // The owner, who knows the PIN, gets through once the back-off has passed.
      nextStep();
      expect((await check(key, id, PIN)).body).toEqual({ match: true });
    });

    it('records every decrypt and check with its actor, fields and outcome, and never a value, a guess or a code', async () => {
      nextStep();
      const [key, id] = [await readKey(), await vaultItem()];
      const code = codeNow();
      const wrong = wrongCode(0);
      await check(key, id, PIN);
      await check(key, id, '9999');
      await decrypt(key, id, wrong);
      await decrypt(key, id, code);
      await decrypt(key, id, code);
      const attempts = await recordedAttempts(id);
      expect(attempts.map(({ operation, outcome, fieldKeys }) => [operation, outcome, fieldKeys])).toEqual([
        ['check', 'matched', ['pin']],
        ['check', 'mismatched', ['pin']],
        ['decrypt', 'invalidCode', ['serial']],
        ['decrypt', 'decrypted', ['serial']],
        ['decrypt', 'replayedCode', ['serial']],
      ]);
      const hex = /^cms_([0-9a-f]{32})_/.exec(key.key)![1]!;
      const keyId = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
      for (const attempt of attempts) {
        expect(attempt.actor).toBe(`key:${keyId}`);
        // Random ids (stream, item, correlation) can hold any four digits; what could carry a secret is the rest.
        const withoutIds = attempt.json.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');
        for (const secret of [SERIAL, PIN, '9999', code, wrong, key.key]) expect(withoutIds).not.toContain(secret);
      }
    });

    it('serves no version or history of a deleted draft or item, on any path, while the log keeps the events', async () => {
      const read = await readKey();
      const unreadable = async (id: string) => {
        const paths = ['/contents', '/v2/contents', '/preview-contents', '/v2/preview-contents'].flatMap((base) => [
          `${base}/Vault/${id}/versions/1`,
          `${base}/Vault/${id}/versions/2`,
          `${base}/Vault/${id}/history`,
        ]);
        for (const path of paths) expect([path, (await api('GET', path, read)).status]).toEqual([path, 404]);
      };
      const draft = await api('PUT', '/v2/preview-contents/Vault', { ...write, body: { fields: { title: 'draft only, then deleted' } } });
      expect((await api('GET', `/v2/preview-contents/Vault/${draft.body.id}/versions/1`, read)).status).toBe(200);
      expect((await api('DELETE', `/v2/preview-contents/Vault/${draft.body.id}`, write)).status).toBe(200);
      await unreadable(draft.body.id);

      const published = await api('PUT', '/v2/contents/Vault', { ...write, body: { fields: { title: 'published, then deleted' } } });
      expect((await api('DELETE', `/contents/Vault/${published.body.id}`, write)).status).toBe(200);
      await unreadable(published.body.id);
      const log = await service.service.container.resolve(TOKENS.eventStore).readStream(`content-${service.workspaceId}-${published.body.id}`);
      expect(log.map((event) => event.type)).toEqual(['ContentDraftSaved', 'ContentPublished', 'ContentDeleted']);

      // A draft deleted while the published version stays: that draft is gone from every version, the published content is not.
      const live = await api('PUT', '/v2/contents/Vault', { ...write, body: { fields: { title: 'public' } } });
      await api('PUT', '/v2/preview-contents/Vault', { ...write, body: { id: live.body.id, fields: { title: 'private draft' } } });
      expect((await api('DELETE', `/v2/preview-contents/Vault/${live.body.id}`, write)).status).toBe(200);
      expect((await api('GET', `/v2/contents/Vault/${live.body.id}/versions/1`, read)).status).toBe(404);
      for (const version of [2, 3, 4]) {
        expect((await api('GET', `/v2/contents/Vault/${live.body.id}/versions/${version}`, read)).body.item.fields).toEqual({ title: 'public' });
      }
      expect((await api('GET', `/v2/contents/Vault/${live.body.id}/history`, read)).body).toHaveLength(4);
    });

    it('answers 404 for the delivery log of another workspace\'s webhook, as for its other webhook routes', async () => {
      const webhook = await api('PUT', '/webhooks', { ...write, body: { endpoint: 'https://example.com/hook', eventTypes: {} } });
      expect(webhook.status).toBe(200);
      expect((await api('GET', `/webhooks/${webhook.body.id}/events`, { key: service.readKey })).status).toBe(200);
      for (const path of [`/webhooks/${webhook.body.id}`, `/webhooks/${webhook.body.id}/events`]) {
        const answer = await api('GET', path, { key: bystander.readKey });
        expect([path, answer.status]).toEqual([path, 404]);
      }
    });
  });
}
