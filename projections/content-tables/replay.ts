import { comparePositions, type EventStore, LOG_PAGE_BYTES, type Position, type RecordedEvent, START } from '../../infra/eventstore/port';
import type { Change, ReadStore } from '../../infra/readstore/port';
import { ProjectionBatch } from '../batch';
import type { Projector, ReadView } from '../projector';
import { CONTENT_ITEMS, contentItemsProjector, ITEM_DOCUMENT_EVENTS } from '../read-models/content-items';
import { CONTENT_ITEM_STATES } from '../read-models/content-item-states';
import { VERSION_ROWS, versionRowsProjector } from '../read-models/published-versions';

const PAGE_SIZE = 1000;
const ITEM_EVENTS: ReadonlySet<string> = new Set(ITEM_DOCUMENT_EVENTS);

/** The tables a type's events are replayed into: its content table and, from layout 3 on, its versions table. */
export interface ReplayTargets {
  readonly collection: string;
  readonly versions?: string;
}

/**
 * Replays content types' item events from the log into their tables (one pass for all of
 * them), with content_items' projection and the version rows' (versionRowsProjector), so each
 * row is the one the live projections make (parsed in one place), their collections mapped to the
 * type's tables: content_items to the content table (and to `scratch`, where the replay reads its
 * documents), the version rows to the versions table and the item states they need
 * (content_item_states) to `scratch`, which the caller drops after. Resumable:
 * `until` continues where it stopped.
 */
export class TablesReplay {
  private after: Position = START;
  private readonly batch: ProjectionBatch;
  private readonly projector: Projector;
  eventsRead = 0;
  eventsApplied = 0;

  /** `tables`: `${workspaceId}:${contentType}` -> the tables to fill. */
  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly tables: ReadonlyMap<string, ReplayTargets>,
    scratch: string,
  ) {
    this.batch = new ProjectionBatch(readStore, (collection) => collection);
    /** The collection a read model's change or read goes to for this event; null: not replayed (content_secrets, a type built without versions). */
    // The content table keeps no documents of its own (they are content_items', at the head): the
    // replay keeps each document as it stood in `scratch` (ids `{ws}:{item}:{stage}`, apart from the
    // item states' `{ws}:{item}`), reads them there, and writes each to the content table too.
    const mapping = (event: RecordedEvent) => {
      const targets = this.tableOf(event)!;
      const map: Record<string, string | undefined> = { [CONTENT_ITEMS]: scratch, [VERSION_ROWS]: targets.versions, [CONTENT_ITEM_STATES]: targets.versions && scratch };
      return (collection: string) => map[collection] ?? null;
    };
    const projectors = (event: RecordedEvent) => (this.tableOf(event)!.versions ? [contentItemsProjector, versionRowsProjector] : [contentItemsProjector]);
    this.projector = {
      name: 'content_table_replay',
      collections: [],
      eventTypes: ITEM_EVENTS,
      prefetch: (event) => {
        const map = mapping(event);
        return projectors(event).flatMap((projector) => projector.prefetch!(event).flatMap((key) => (map(key.collection) ? [{ ...key, collection: map(key.collection)! }] : [])));
      },
      prefetchFollowing: (event, prefetched) => {
        const map = mapping(event);
        const mappedPrefetched = (collection: string, id: string) => prefetched(map(collection) ?? collection, id);
        return projectors(event).flatMap((projector) =>
          (projector.prefetchFollowing?.(event, mappedPrefetched) ?? []).flatMap((key) => (map(key.collection) ? [{ ...key, collection: map(key.collection)! }] : [])),
        );
      },
      project: async (event, view) => {
        const map = mapping(event);
        const mappedView: ReadView = { get: (collection, id) => view.get(map(collection) ?? collection, id) };
        const changes: Change[] = [];
        for (const projector of projectors(event)) {
          for (const change of await projector.project(event, mappedView)) {
            const collection = map(change.collection);
            if (collection) changes.push({ ...change, collection });
            if (change.collection === CONTENT_ITEMS) changes.push({ ...change, collection: this.tableOf(event)!.collection });
          }
        }
        return changes;
      },
    };
  }

  get position(): Position {
    return this.after;
  }

  private tableOf(event: RecordedEvent): ReplayTargets | undefined {
    if (!ITEM_EVENTS.has(event.type)) return undefined;
    const data = event.data as { workspaceId?: unknown; contentType?: unknown };
    return this.tables.get(`${String(data.workspaceId)}:${String(data.contentType)}`);
  }

  /** Applies the types' events up to `head`, page by page; `onPage` reports progress. */
  async until(head: Position, onPage: () => void): Promise<void> {
    while (comparePositions(this.after, head) < 0) {
      const page = (await this.events.readAll({ after: this.after, maxCount: PAGE_SIZE, maxBytes: LOG_PAGE_BYTES })).filter((event) => comparePositions(event.position, head) <= 0);
      if (page.length === 0) break;
      for (const event of page) {
        if (this.tableOf(event) === undefined) continue;
        this.batch.add([this.projector], event);
        this.eventsApplied += 1;
      }
      await this.readStore.apply(await this.batch.drain());
      this.after = page[page.length - 1]!.position;
      this.eventsRead += page.length;
      onPage();
    }
  }
}
