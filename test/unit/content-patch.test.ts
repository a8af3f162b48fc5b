import type { ItemSealer } from '../../infra/crypto/item-sealer';
import { randomUUID } from 'node:crypto';
import { CommandRunner } from '../../commands/aggregate';
import { ContentCommands, type ContentReadSide } from '../../commands/content';
import { UniqueWriteLock } from '../../commands/unique-write-lock';
import { InProcessLeaseStore } from '../../infra/lease/in-process';
import { PatternThread } from '../../infra/regex/pattern-thread';
import { systemClock } from '../../infra/clock';
import type { WorkspaceCipher } from '../../infra/crypto/envelope';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import type { ContentTypeDocument } from '../../projections/read-models/content-types';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';
import { openMemoryPglite } from '../support/pglite-template';

const context = { workspaceId: 'ws', actor: 'test' };
const ready = { waitFor: async () => true };
const articleType: ContentTypeDocument = {
  id: 'ws:Article',
  workspaceId: 'ws',
  contentTypeId: 'type-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  sealedActionHeaders: {},
  ...contentTypeDefinition.parse({
    name: 'Article',
    key: 'Article',
    fields: [
      { key: 'title', type: 'Text' },
      { key: 'views', type: 'Number' },
      { key: 'related', type: 'Relation' },
    ],
  }),
};
const noCipher = {} as WorkspaceCipher; // encrypted fields are not used here
const noSealer = {} as ItemSealer; // nor personal-data types

/**
 * A patch reads the item, merges and validates (asking the read side about relation targets),
 * then appends. Another write landing in between must not be lost: the patch is merged again.
 */
describe('content patch against a concurrent write', () => {
  let sql: PgliteSqlClient;
  let events: PostgresEventStore;

  beforeAll(async () => {
    sql = await openMemoryPglite();
    events = await PostgresEventStore.create(sql);
  });
  const patterns = new PatternThread();
  afterAll(async () => {
    await patterns.close();
    await sql.close();
  });

  it('merges again onto the item as the concurrent write left it', async () => {
    const target = randomUUID();
    let interleave: (() => Promise<unknown>) | null = null;
    const lookups: string[][] = [];
    const readSide: ContentReadSide = {
      contentType: async () => articleType,
      localeCodes: async () => new Map(),
      itemTypes: async (_workspaceId, itemIds) => {
        lookups.push([...itemIds]);
        const write = interleave;
        interleave = null;
        if (write) await write();
        return new Map(itemIds.map((id) => [id, 'Article']));
      },
      existingAssets: async () => new Set(),
      holderOf: async () => null,
    };
    const patcher = new ContentCommands(new CommandRunner(events, systemClock, ready), readSide, noCipher, noSealer, new UniqueWriteLock(new InProcessLeaseStore('patch-test'), async () => true), patterns);
    const otherInstance = new ContentCommands(new CommandRunner(events, systemClock, ready), readSide, noCipher, noSealer, new UniqueWriteLock(new InProcessLeaseStore('patch-test'), async () => true), patterns);

    const { itemId } = await patcher.save('ws', 'Article', { fields: { title: 'Start', views: 1 } }, false, context);
    interleave = () => otherInstance.save('ws', 'Article', { id: itemId, fields: { title: 'Renamed elsewhere', views: 1 } }, false, context);
    const patched = await patcher.patch('ws', 'Article', itemId, { fields: { related: target } }, 'draft', context);

    expect(patched.content.fields).toEqual({ title: 'Renamed elsewhere', views: 1, related: target });
    expect(lookups).toEqual([[target], [target]]);
    const types = (await events.readStream(`content-ws-${itemId}`)).map((event) => [event.type, (event.data as { fields: object }).fields]);
    expect(types).toEqual([
      ['ContentDraftSaved', { title: 'Start', views: 1 }],
      ['ContentDraftSaved', { title: 'Renamed elsewhere', views: 1 }],
      ['ContentDraftSaved', { title: 'Renamed elsewhere', views: 1, related: target }],
    ]);
  });
});
