import { comparePositions, type EventStore, type Position, type RecordedEvent, START } from '../../infra/eventstore/port';
import type { ReadStore } from '../../infra/readstore/port';
import { ProjectionBatch } from '../batch';
import type { Projector } from '../projector';
import { CONTENT_ITEMS, contentItemsProjector, ITEM_DOCUMENT_EVENTS } from '../read-models/content-items';

const PAGE_SIZE = 1000;
const ITEM_EVENTS: ReadonlySet<string> = new Set(ITEM_DOCUMENT_EVENTS);

/**
 * Replays content types' item events from the log into their tables (one pass for all of
 * them), with content_items' own projection, so each document is the one content_items
 * makes (parsed in one place), its collection mapped to the type's table. Resumable:
 * `until` continues where it stopped.
 */
export class TablesReplay {
  private after: Position = START;
  private readonly batch: ProjectionBatch;
  private readonly projector: Projector;
  eventsRead = 0;
  eventsApplied = 0;

  /** `tables`: `${workspaceId}:${contentType}` -> the table to fill. */
  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly tables: ReadonlyMap<string, string>,
  ) {
    this.batch = new ProjectionBatch(readStore, (collection) => collection);
    const tableOf = (event: RecordedEvent) => this.tableOf(event)!;
    const mapped = (table: string, collection: string) => (collection === CONTENT_ITEMS ? table : collection);
    this.projector = {
      name: 'content_table_replay',
      collections: [],
      eventTypes: ITEM_EVENTS,
      prefetch: (event) =>
        contentItemsProjector
          .prefetch!(event)
          .filter((key) => key.collection === CONTENT_ITEMS)
          .map((key) => ({ ...key, collection: tableOf(event) })),
      project: async (event, view) => {
        const table = tableOf(event);
        const changes = await contentItemsProjector.project(event, { get: (collection, id) => view.get(mapped(table, collection), id) });
        return changes.filter((change) => change.collection === CONTENT_ITEMS).map((change) => ({ ...change, collection: table }));
      },
    };
  }

  get position(): Position {
    return this.after;
  }

  private tableOf(event: RecordedEvent): string | undefined {
    if (!ITEM_EVENTS.has(event.type)) return undefined;
    const data = event.data as { workspaceId?: unknown; contentType?: unknown };
    return this.tables.get(`${String(data.workspaceId)}:${String(data.contentType)}`);
  }

  /** Applies the types' events up to `head`, page by page; `onPage` reports progress. */
  async until(head: Position, onPage: () => void): Promise<void> {
    while (comparePositions(this.after, head) < 0) {
      const page = (await this.events.readAll({ after: this.after, maxCount: PAGE_SIZE })).filter((event) => comparePositions(event.position, head) <= 0);
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
