import { type Answer, call } from '../../support/http';

const TYPE = 'Article';
const UPDATES_PER_ITEM = 2;

export const articleType = { name: 'Article', key: TYPE, fields: [{ key: 'title', type: 'Text', required: true }, { key: 'revision', type: 'Number' }] };

/** What the service acknowledged (2xx) for one item, and what was in flight for it when the service died. */
export interface ItemLedger {
  readonly id: string;
  /** The fields of each acknowledged draft save, in order. */
  readonly saves: Record<string, unknown>[];
  /** The fields published by an acknowledged publish. */
  published: Record<string, unknown> | null;
  /** Written or not: no answer came. */
  pending: { readonly kind: 'save'; readonly fields: Record<string, unknown> } | { readonly kind: 'publish' } | null;
}

export interface WriterLedger {
  readonly items: ItemLedger[];
  /** Creations that got no answer: the item may exist, under an id nobody was told. */
  pendingCreates: number;
  /** Answers other than 2xx while the service was up: there must be none. */
  readonly refused: string[];
}

/**
 * One client writing content until the service stops answering: it creates a draft, saves it
 * again UPDATES_PER_ITEM times, publishes it, and starts the next one. Every acknowledged
 * write is recorded; the write in flight when the answers stop is recorded as pending.
 */
export async function runContentWriter(url: string, writeKey: string, client: number, ledger: WriterLedger): Promise<void> {
  for (let itemNumber = 0; ; itemNumber++) {
    const fields = (revision: number) => ({ title: `client ${client} item ${itemNumber}`, revision });
    const created = await attempt(url, 'PUT', `/v2/preview-contents/${TYPE}`, writeKey, { fields: fields(0) });
    if (created === null) {
      ledger.pendingCreates++;
      return;
    }
    if (!isAcknowledged(created, ledger)) return;
    const item: ItemLedger = { id: created.body.id, saves: [fields(0)], published: null, pending: null };
    ledger.items.push(item);
    for (let revision = 1; revision <= UPDATES_PER_ITEM; revision++) {
      const saved = await attempt(url, 'PUT', `/v2/preview-contents/${TYPE}`, writeKey, { id: item.id, fields: fields(revision) });
      if (saved === null) {
        item.pending = { kind: 'save', fields: fields(revision) };
        return;
      }
      if (!isAcknowledged(saved, ledger)) return;
      item.saves.push(fields(revision));
    }
    const published = await attempt(url, 'PUT', `/v2/preview-contents/${TYPE}/${item.id}/publish`, writeKey, {});
    if (published === null) {
      item.pending = { kind: 'publish' };
      return;
    }
    if (!isAcknowledged(published, ledger)) return;
    item.published = item.saves[item.saves.length - 1]!;
  }
}

function isAcknowledged(answer: Answer, ledger: WriterLedger): boolean {
  if (answer.status >= 200 && answer.status < 300) return true;
  ledger.refused.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return false;
}

/** The answer, or null when none came (the connection was refused or cut). */
export async function attempt(url: string, method: string, path: string, key: string, body?: unknown): Promise<Answer<any> | null> {
  try {
    return await call(url, method, path, { key, body });
  } catch {
    return null;
  }
}
