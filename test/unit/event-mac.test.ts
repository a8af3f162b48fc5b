import { randomBytes } from 'node:crypto';
import { checkpointKey } from '../../infra/eventstore/chain-audit';
import { contentDigest, eventHash } from '../../infra/eventstore/chain';
import { BrokenChainError, ChainGuard, ChainGuardThread, chainedEventRow } from '../../projections/chain-guard';
import { eventMac, eventMacKey, eventMacValid, type MacMarker, type MacMarkerBody, macMarkerSignatureValid, macRequired, signMacMarker, trustedMarker } from '../../infra/eventstore/event-mac';
import { EventMacCheck } from '../../infra/eventstore/event-mac-check';
import { MacVerification } from '../../src/cli/verify-macs';
import { MacCheckedEventLog } from '../../infra/eventstore/mac-checked';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { RecordedEvent } from '../../infra/eventstore/port';
import { openMemoryPglite } from '../support/pglite-template';
import { eventually } from '../support/waiting';

const masterKey = randomBytes(32);
const macKey = eventMacKey(masterKey);
const signingKey = checkpointKey(masterKey);

function event(revision: number, position: bigint, data: unknown = { title: 'Lamp' }): RecordedEvent {
  return {
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    stream: 'content-ws-1',
    revision,
    position: { commit: position, prepare: position },
    type: 'ContentPublished',
    data,
    metadata: { workspaceId: 'ws', actor: 'key:a', correlationId: 'c', timestamp: '2026-01-01T00:00:00.000Z' },
  };
}

const withMac = (recorded: RecordedEvent, key = macKey): RecordedEvent => ({ ...recorded, mac: eventMac(key, contentDigest(recorded)).toString('hex') });

function marker(body: Partial<MacMarkerBody>, key: Buffer | null = signingKey): MacMarker {
  const full: MacMarkerBody = { kind: 'event-macs', at: '2026-01-01T00:00:00.000Z', after: '5/5', eventsBefore: 5, ...body };
  return { body: full, signature: key ? signMacMarker(full, key) : null };
}

describe('event MACs', () => {
  it('derives a MAC key of its own from the master key: not the checkpoint key, and another per master key', () => {
    expect(macKey).toHaveLength(32);
    expect(macKey.equals(eventMacKey(masterKey))).toBe(true);
    expect(macKey.equals(signingKey)).toBe(false);
    expect(macKey.equals(eventMacKey(randomBytes(32)))).toBe(false);
  });

  it('verifies the MAC of a content digest, and refuses another digest, another key and text that is not a MAC', () => {
    const digest = contentDigest(event(0, 1n));
    const mac = eventMac(macKey, digest).toString('hex');
    expect(eventMacValid(macKey, digest, mac)).toBe(true);
    expect(eventMacValid(macKey, contentDigest(event(0, 1n, { title: 'Torch' })), mac)).toBe(false);
    expect(eventMacValid(eventMacKey(randomBytes(32)), digest, mac)).toBe(false);
    for (const text of ['', 'zz'.repeat(32), mac.slice(2), `${mac}00`, mac.toUpperCase()]) expect(eventMacValid(macKey, digest, text)).toBe(false);
  });

  it('signs the marker with the checkpoint key; an edited marker, another key or no signature does not verify', () => {
    expect(macMarkerSignatureValid(marker({}), signingKey)).toBe(true);
    const signed = marker({});
    expect(macMarkerSignatureValid({ ...signed, body: { ...signed.body, after: '9/9' } }, signingKey)).toBe(false);
    expect(macMarkerSignatureValid({ ...signed, body: { ...signed.body, eventsBefore: 6 } }, signingKey)).toBe(false);
    expect(macMarkerSignatureValid(signed, macKey)).toBe(false);
    expect(macMarkerSignatureValid(marker({}, null), signingKey)).toBe(false);
    expect(trustedMarker(signed, signingKey)).toBe(signed);
    expect(trustedMarker({ ...signed, body: { ...signed.body, after: '9/9' } }, signingKey)).toBeNull();
  });

  it('requires a MAC after the marker position only, of every event on an empty log at the upgrade, and of every event without a marker', () => {
    expect(macRequired(marker({ after: '5/5' }), { commit: 5n, prepare: 5n })).toBe(false);
    expect(macRequired(marker({ after: '5/5' }), { commit: 4n, prepare: 9n })).toBe(false);
    expect(macRequired(marker({ after: '5/5' }), { commit: 5n, prepare: 6n })).toBe(true);
    expect(macRequired(marker({ after: null, eventsBefore: 0 }), { commit: 1n, prepare: 1n })).toBe(true);
    expect(macRequired(null, { commit: 1n, prepare: 1n })).toBe(true);
  });

  it('names an event whose MAC fails, one after the marker without a MAC, and passes an older one without', () => {
    const check = new EventMacCheck(macKey, marker({ after: '5/5' }));
    expect(check.problem(withMac(event(1, 9n)))).toBeNull();
    expect(check.problem(event(0, 3n))).toBeNull();
    expect(check.problem(event(1, 9n))).toBe(
      'stream content-ws-1 revision 1 at position 9/9: carries no MAC, though every event after position 5/5 carries one (the signed MAC marker): it was written past the service, or its MAC removed',
    );
    // A MAC made with another key, and a correct MAC on an event changed afterwards.
    expect(check.problem(withMac(event(1, 9n), eventMacKey(randomBytes(32))))).toMatch(/^stream content-ws-1 revision 1 at position 9\/9: its MAC does not verify/);
    expect(check.problem({ ...withMac(event(1, 9n)), data: { title: 'Torch' } })).toMatch(/its MAC does not verify/);
    // A MAC present on an older event is checked too.
    expect(check.problem({ ...withMac(event(0, 3n)), data: { title: 'Torch' } })).toMatch(/its MAC does not verify/);
  });
});

describe('the MAC-checked log of the live subscribers (PGlite)', () => {
  it('writes a MAC with each appended event, hands a row inserted past the store to no subscriber, and reports it once', async () => {
    const sql = await openMemoryPglite();
    try {
      const store = await PostgresEventStore.create(sql, { checkpointKey: signingKey, macKey });
      expect(store.macMarker?.body).toMatchObject({ kind: 'event-macs', after: null, eventsBefore: 0 });
      const metadata = { workspaceId: null, actor: 'test', correlationId: 'c', timestamp: new Date().toISOString() };
      await store.append('genuine', [{ type: 'Before', data: { n: 1 }, metadata }], 'no_stream');
      const [written] = await store.readStream('genuine');
      expect(written!.mac).toBe(eventMac(macKey, contentDigest(written!)).toString('hex'));
      // A row as an INSERT with the service's grants makes it: a well-formed event, no MAC.
      await sql.query(`insert into es_events (stream, revision, id, type, data, metadata, hash) values ('forged', 0, $1, 'Forged', '{}', $2::text::jsonb, '\\x00')`, [
        '00000000-0000-4000-8000-00000000000f',
        JSON.stringify(metadata),
      ]);
      await store.append('genuine', [{ type: 'After', data: { n: 2 }, metadata }], 0);

      const refused: string[] = [];
      const log = new MacCheckedEventLog(store, new EventMacCheck(macKey, trustedMarker(store.macMarker, signingKey)), async (event, problem) => {
        refused.push(`${event.type}: ${problem}`);
      });
      const seen: string[][] = [[], []];
      const subscriptions = seen.map((types) => log.subscribeToAll({ onEvent: async (event) => void types.push(event.type) }));
      try {
        await eventually(() => seen.every((types) => types.length === 2));
        expect(seen).toEqual([
          ['Before', 'After'],
          ['Before', 'After'],
        ]);
        expect(refused).toEqual([expect.stringMatching(/^Forged: stream forged revision 0 at position \d+\/\d+: carries no MAC, though every event carries one \(the signed MAC marker: MACs began with the log\)/)]);
      } finally {
        for (const subscription of subscriptions) await subscription.stop();
      }

      // A refusal that fails (the read store away) ends the subscription; its retry refuses again.
      let attempts = 0;
      const flaky = new MacCheckedEventLog(store, new EventMacCheck(macKey, trustedMarker(store.macMarker, signingKey)), async () => {
        attempts++;
        if (attempts === 1) throw new Error('the read store is away');
      });
      await expect(flaky.subscribeToAll({ onEvent: async () => undefined }).done).rejects.toThrow('the read store is away');
      const retried: string[] = [];
      const retry = flaky.subscribeToAll({ onEvent: async (event) => void retried.push(event.type) });
      try {
        await eventually(() => retried.length === 2);
        expect(attempts).toBe(2);
      } finally {
        await retry.stop();
      }
      await store.close();
    } finally {
      await sql.close();
    }
  });
});

describe('the replay chain check with MACs (a rebuild)', () => {
  /** Three events of one stream, chained; the last inserted past the service: a correct link, a MAC of another key. */
  function log(): RecordedEvent[] {
    let previous: Buffer | null = null;
    return [0, 1, 2].map((revision) => {
      const recorded = event(revision, BigInt(10 + revision), { revision });
      previous = eventHash(recorded, revision, previous);
      return withMac({ ...recorded, hash: previous.toString('hex') }, revision === 2 ? eventMacKey(randomBytes(32)) : macKey);
    });
  }

  it('refuses the event whose MAC fails, naming it, and checks the chain alone without MACs to check', () => {
    const rows = log().map(chainedEventRow);
    expect(new ChainGuard(new EventMacCheck(macKey, marker({ after: null, eventsBefore: 0 }))).check(rows)).toMatch(
      /^the event log holds an event the service did not write: stream content-ws-1 revision 2 at position 12\/12: its MAC does not verify.*--skip-chain-check/,
    );
    expect(new ChainGuard().check(rows)).toBeNull();
  });

  it('does so on its thread, the MAC key and marker crossing to it', async () => {
    const thread = new ChainGuardThread(new EventMacCheck(macKey, marker({ after: null, eventsBefore: 0 })));
    try {
      const events = log();
      await expect(thread.check(events.slice(0, 2))).resolves.toBeUndefined();
      const refused = await thread.check(events.slice(2)).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(BrokenChainError);
      expect((refused as Error).message).toMatch(/stream content-ws-1 revision 2 at position 12\/12: its MAC does not verify/);
    } finally {
      await thread.close();
    }
  });
});

describe("verify's MAC check", () => {
  /** Two events before the marker (no MAC), two after it (with). */
  const log = () => [event(0, 3n), event(1, 5n), withMac(event(2, 7n)), withMac(event(3, 9n))];

  function run(markerFound: MacMarker | null, events: RecordedEvent[]) {
    const verification = new MacVerification(macKey, markerFound, signingKey);
    const problems: string[] = [];
    for (const recorded of events) {
      const problem = verification.inspect(recorded, contentDigest(recorded));
      if (problem) problems.push(problem);
    }
    const lines = verification.report(events.length, (problem) => problems.push(problem));
    return { problems, lines };
  }

  it('passes the events before the marker without MACs and those after it with', () => {
    expect(run(marker({ after: '5/5', eventsBefore: 2 }), log())).toEqual({
      problems: [],
      lines: ['macs: each of the 2 events after position 5/5 (MACs began 2026-01-01T00:00:00.000Z) carries a MAC that verifies; 2 events predate MACs'],
    });
    expect(run(null, log().slice(0, 2))).toEqual({ problems: [], lines: [expect.stringMatching(/^macs: none of the events carries a MAC: the store predates them/)] });
  });

  it('catches an event inserted before the marker, the marker deleted, and the marker altered', () => {
    const inserted = run(marker({ after: '5/5', eventsBefore: 2 }), [event(9, 4n), ...log()]);
    expect(inserted.problems).toEqual([
      'the MAC marker counts 2 events written before MACs (up to position 5/5); the log holds 3 there: events were inserted into the history before MACs',
    ]);
    expect(run(null, [...log(), event(4, 11n)]).problems).toEqual([
      'the MAC marker (es_mac_marker) is missing while 2 events carry a MAC: it was deleted, so that events without a MAC would pass as older than MACs',
    ]);
    const moved = marker({ after: '5/5', eventsBefore: 2 });
    const altered = run({ ...moved, body: { ...moved.body, after: '11/11', eventsBefore: 5 } }, [...log(), event(4, 11n)]);
    expect(altered.problems).toEqual([
      expect.stringMatching(/^stream content-ws-1 revision 0 at position 3\/3: carries no MAC, though the MAC marker is missing/),
      expect.stringMatching(/^stream content-ws-1 revision 1 at position 5\/5: carries no MAC/),
      expect.stringMatching(/^stream content-ws-1 revision 4 at position 11\/11: carries no MAC/),
      "the MAC marker's signature does not match: it was altered or forged (or ENCRYPTION_KEY is not its store's); every event is held to carry a MAC",
    ]);
  });
});
