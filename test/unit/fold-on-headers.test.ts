import type { DomainEvent } from '../../commands/aggregate';
import { foldOnHeaders } from '../../commands/fold-on-headers';
import { START, type RecordedEvent } from '../../infra/eventstore/port';
import { contentDecider } from '../../src/domain/content/decider';
import { contentEvent, type ContentEvent } from '../../src/domain/content/events';
import { foldEvents } from '../../src/domain/decider';

/** A small deterministic generator, so that a failing sequence can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const TYPES = ['ContentDraftSaved', 'ContentPublished', 'ContentUnpublished', 'ContentDraftDeleted', 'ContentDeleted', 'ContentRestored', 'ContentEncryptedFieldsSet', 'ContentErased'] as const;

function eventOf(type: (typeof TYPES)[number], revision: number, next: () => number): ContentEvent {
  const ref = { workspaceId: 'ws', itemId: 'i', contentType: next() < 0.5 ? 'Article' : 'Page' };
  const translations: Record<string, Record<string, unknown>> = next() < 0.5 ? {} : { title: { de: `Titel ${revision}` } };
  const body = { fields: { title: `title at ${revision}`, n: revision }, translations };
  switch (type) {
    case 'ContentDraftSaved':
      return { type, data: { ...ref, created: revision === 0, ...body } };
    case 'ContentPublished':
      return { type, data: { ...ref, firstPublish: false, ...body } };
    case 'ContentRestored':
      return { type, data: { ...ref, fromVersion: 1, stage: 'draft', reason: null, ...body } };
    case 'ContentEncryptedFieldsSet':
      return { type, data: { ...ref, ciphertexts: { secret: `c${revision}` } } };
    case 'ContentErased':
      return { type, data: { ...ref, reason: 'asked' } };
    default:
      return { type, data: ref };
  }
}

function recorded(events: readonly ContentEvent[]): RecordedEvent[] {
  return events.map((event, revision) => ({
    id: `e${revision}`,
    stream: 'content-ws-i',
    revision,
    position: START,
    type: event.type,
    data: event.data,
    metadata: { workspaceId: 'ws', actor: 'test', correlationId: 'c', timestamp: '2026-01-01T00:00:00.000Z' },
  }));
}

async function onHeaders(stored: readonly RecordedEvent[], revisionsRead: number[] = [], tailRead = 0) {
  const headers = stored.map(({ data: _data, ...header }) => header);
  const read = async (fromRevision: number, maxCount: number) => {
    const range = stored.slice(fromRevision, fromRevision + maxCount);
    revisionsRead.push(...range.map((event) => event.revision));
    return range;
  };
  const evolve = contentDecider.evolve as (state: unknown, event: DomainEvent) => never;
  const known = new Map(stored.slice(stored.length - tailRead).map((event) => [event.revision, contentEvent.parse(event)]));
  return foldOnHeaders(headers, contentDecider.initialState, evolve, read, contentEvent.parse, known);
}

describe('folding a content stream on its headers', () => {
  it('gives the state a fold of every event gives, for any order of content events', async () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const length = 1 + Math.floor(next() * 14);
      const events = Array.from({ length }, (_, revision) => eventOf(TYPES[Math.floor(next() * TYPES.length)]!, revision, next));
      const whole = foldEvents(contentDecider, events.map((event) => contentEvent.parse(event)));
      const tailRead = Math.floor(next() * 4);
      expect({ seed, state: await onHeaders(recorded(events), [], tailRead) }).toStrictEqual({ seed, state: whole });
    }
  });

  it('reads whole only the events whose values the state keeps', async () => {
    const events: ContentEvent[] = [];
    for (let version = 0; version < 500; version++) {
      events.push(eventOf('ContentDraftSaved', events.length, () => 0));
      if (version === 10) events.push(eventOf('ContentPublished', events.length, () => 0));
    }
    const read: number[] = [];
    const state = await onHeaders(recorded(events), read);
    expect(state.draft?.fields).toEqual({ title: 'title at 500', n: 500 });
    expect(state.published?.fields).toEqual({ title: 'title at 11', n: 11 });
    expect(state.version).toBe(501);
    expect(read).toEqual([11, 500]);
  });

  it('does not read again the events it was given whole', async () => {
    const events = [eventOf('ContentDraftSaved', 0, () => 0), eventOf('ContentPublished', 1, () => 0), eventOf('ContentDraftSaved', 2, () => 0)];
    const read: number[] = [];
    const state = await onHeaders(recorded(events), read, 1);
    expect(read).toEqual([1]);
    expect([state.draft?.fields.n, state.published?.fields.n]).toEqual([2, 1]);
  });

  it('reads of a deleted item only the event that names the type it held', async () => {
    const read: number[] = [];
    const state = await onHeaders(recorded([eventOf('ContentDraftSaved', 0, () => 0), eventOf('ContentDeleted', 1, () => 0)]), read);
    expect(state).toMatchObject({ exists: false, draft: null, version: 2, heldType: 'Article' });
    expect(read).toEqual([0]);
  });

  it('refuses a stream holding an event its aggregate does not know', async () => {
    const stored = recorded([eventOf('ContentDraftSaved', 0, () => 0)]).map((event) => ({ ...event, type: 'SomethingElse' }));
    await expect(onHeaders(stored)).rejects.toThrow('event 0 of content-ws-i is a SomethingElse');
  });
});
