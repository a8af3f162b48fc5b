import { handles } from '../projections/projector';
import type { RecordedEvent } from '../infra/eventstore/port';
import type { Change, Document } from '../infra/readstore/port';
import { CONTENT_ITEMS, type ContentItemDocument, contentItemsProjector, type Stage } from '../projections/read-models/content-items';
import { notFound } from '../src/domain/errors';

/** An item's two stages right after one version (event) of its stream. */
export interface StageSnapshot {
  /** 1-based stream revision. */
  readonly version: number;
  /** When that version was written. */
  readonly at: string;
  readonly draft: ContentItemDocument | null;
  readonly published: ContentItemDocument | null;
}

/** One stage of an item at one version: the document the read model held then. */
export interface StageAtVersion {
  readonly version: number;
  readonly at: string;
  readonly stage: Stage;
  readonly document: ContentItemDocument;
}

/**
 * An item's stages after each served version. Built by replaying the item's own events
 * through the content_items projector in memory, so a past version answers exactly what the
 * read model answered then: the published content on published paths (not a draft nobody
 * published), the draft on preview paths, with their createdAt, updatedAt and publishedAt.
 */
export class ContentTimeline {
  private constructor(
    private readonly snapshots: readonly StageSnapshot[],
    /** The item's newest version (its stream's length). */
    readonly latest: number,
  ) {}

  /**
   * `events` are the served part of the stream (the item's current life); drafts of versions
   * up to `draftsErasedThrough` (a version, 0 for none) are not served.
   */
  static async replay(events: readonly RecordedEvent[], draftsErasedThrough: number, latest: number): Promise<ContentTimeline> {
    const documents = new Map<string, Document>();
    const view = { get: <T extends Document>(_collection: string, id: string) => Promise.resolve((documents.get(id) as T | undefined) ?? null) };
    const snapshots: StageSnapshot[] = [];
    for (const event of events) {
      const changes: Change[] = handles(contentItemsProjector, event.type) ? await contentItemsProjector.project(event, view) : [];
      for (const change of changes) {
        if (change.collection !== CONTENT_ITEMS) continue;
        if (change.kind === 'upsert') documents.set(change.document.id, change.document);
        else documents.delete(change.id);
      }
      const version = event.revision + 1;
      const stages = [...documents.values()] as ContentItemDocument[];
      snapshots.push({
        version,
        at: event.metadata.timestamp,
        draft: version <= draftsErasedThrough ? null : (stages.find((document) => document.stage === 'draft') ?? null),
        published: stages.find((document) => document.stage === 'published') ?? null,
      });
    }
    return new ContentTimeline(snapshots, latest);
  }

  /** The stage at `version`; 404 when the version is not served or the stage held nothing then. */
  atVersion(stage: Stage, version: number): StageAtVersion {
    const snapshot = this.snapshots.find((candidate) => candidate.version === version);
    if (!snapshot) throw notFound(`content item has no version ${version}`);
    return this.stageOf(snapshot, stage, `at version ${version}`);
  }

  /**
   * The stage as it stood at `time`: after the last version written at or before it. The
   * stream's order decides, so a clock that stepped back cannot reorder versions.
   */
  asOf(stage: Stage, time: Date): StageAtVersion {
    let found: StageSnapshot | undefined;
    for (const snapshot of this.snapshots) {
      if (Date.parse(snapshot.at) > time.getTime()) break;
      found = snapshot;
    }
    if (!found) throw notFound(`content item did not exist at ${time.toISOString()}`);
    return this.stageOf(found, stage, `at ${time.toISOString()}`);
  }

  private stageOf(snapshot: StageSnapshot, stage: Stage, when: string): StageAtVersion {
    const document = stage === 'draft' ? snapshot.draft : snapshot.published;
    if (!document) throw notFound(stage === 'draft' ? `content item had no draft ${when}` : `content item was not published ${when}`);
    return { version: snapshot.version, at: snapshot.at, stage, document };
  }
}
