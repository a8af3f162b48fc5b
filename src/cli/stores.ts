import pino from 'pino';
import type { ChainAudit } from '../../infra/eventstore/chain-audit';
import type { MacMarker } from '../../infra/eventstore/event-mac';
import type { EventStore } from '../../infra/eventstore/port';
import type { ItemKeyStore } from '../../infra/keys/item-port';
import type { DataKeyStore } from '../../infra/keys/port';
import type { ReadStore } from '../../infra/readstore/port';
import type { Config } from '../config';
import { buildContainer, TOKENS } from '../container';
import { holdingDataDir, type StoreCommand } from './holding-data-dir';

/** The stores the configuration names, opened by this process (the embedded store only while no other process holds it). */
export interface Stores {
  /** The log as stored (personal-data values sealed): what exports carry. */
  readonly events: EventStore;
  /** The log with personal-data values opened: what read models are built from. */
  readonly readableEvents: EventStore;
  readonly readStore: ReadStore;
  readonly dataKeys: DataKeyStore;
  readonly itemKeys: ItemKeyStore;
  /** The log's checkpoints and their key, the key of the events' MACs and their marker; null on a store that keeps none (EventStoreDB). */
  readonly chain: { readonly audit: ChainAudit; readonly key: Buffer; readonly macKey: Buffer; readonly macMarker: MacMarker | null } | null;
}

/** Runs `command`'s `work` on the configured stores, holding the embedded store's DATA_DIR (holding-data-dir.ts) meanwhile. */
export function withStores<T>(config: Config, command: StoreCommand, work: (stores: Stores) => Promise<T>): Promise<T> {
  return holdingDataDir(config, command, () => withOpenStores(config, work));
}

/** Runs `work` on the configured stores and closes them afterwards, also when `work` throws; the caller holds DATA_DIR. */
export async function withOpenStores<T>(config: Config, work: (stores: Stores) => Promise<T>): Promise<T> {
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
