import pino from 'pino';
import type { ChainAudit } from '../../infra/eventstore/chain-audit';
import type { EventStore } from '../../infra/eventstore/port';
import type { ItemKeyStore } from '../../infra/keys/item-port';
import type { DataKeyStore } from '../../infra/keys/port';
import type { ReadStore } from '../../infra/readstore/port';
import type { Config } from '../config';
import { buildContainer, TOKENS } from '../container';

/** The stores the configuration names, opened by this process (the service must be stopped for the embedded store). */
export interface Stores {
  /** The log as stored (personal-data values sealed): what exports carry. */
  readonly events: EventStore;
  /** The log with personal-data values opened: what read models are built from. */
  readonly readableEvents: EventStore;
  readonly readStore: ReadStore;
  readonly dataKeys: DataKeyStore;
  readonly itemKeys: ItemKeyStore;
  /** The log's checkpoints and their key; null on a store that keeps none (EventStoreDB). */
  readonly chain: { readonly audit: ChainAudit; readonly key: Buffer } | null;
}

/** Runs `work` on the configured stores and closes them afterwards, also when `work` throws. */
export async function withStores<T>(config: Config, work: (stores: Stores) => Promise<T>): Promise<T> {
  const container = await buildContainer(config, pino({ level: 'warn' }));
  try {
    return await work({
      events: container.resolve(TOKENS.eventStore),
      readableEvents: container.resolve(TOKENS.unsealedEventStore),
      readStore: container.resolve(TOKENS.readStore),
      dataKeys: container.resolve(TOKENS.dataKeys),
      itemKeys: container.resolve(TOKENS.itemKeys),
      chain: container.resolve(TOKENS.chainAudit),
    });
  } finally {
    for (const close of container.resolve(TOKENS.closers)) await close();
  }
}
