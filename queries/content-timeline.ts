import type { EventHeader } from '../infra/eventstore/port';
import { type ContentItemDocument, nextStages, type ItemStages, type Stage } from '../projections/read-models/content-items';
import { notFound } from '../src/domain/errors';

/** An item's two stages right after one version (event) of its stream, without their values. */
interface StageSnapshot extends ItemStages {
  /** 1-based stream revision. */
  readonly version: number;
  /** When that version was written. */
  readonly at: string;
}

/**
 * One stage of an item at one version: the document the read model held then. Its `fields`
 * and `translations` are empty until read from the event named by its `version`
 * (ContentHistoryQueries.withValues).
 */
export interface StageAtVersion {
  readonly version: number;
  readonly at: string;
  readonly stage: Stage;
  readonly document: ContentItemDocument;
}

/** The item whose served events a timeline replays. */
export interface TimelineItem {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly contentType: string;
}

/**
 * An item's stages after each served version, from the headers of its events: the content_items
 * read model's rules (nextStages) replayed without values, so a past version answers exactly
 * what the read model answered then (the published content on published paths, not a draft
 * nobody published; the draft on preview paths; their createdAt, updatedAt and publishedAt) and
 * each document's `version` names the one event whose values it holds.
 */
export class ContentTimeline {
  private constructor(
    private readonly snapshots: readonly StageSnapshot[],
    /** The item's newest version (its stream's length). */
    readonly latest: number,
  ) {}

  /**
   * `headers` are the served part of the stream (the item's current life); drafts of versions
   * up to `draftsErasedThrough` (a version, 0 for none) are not served.
   */
  static replay(item: TimelineItem, headers: readonly EventHeader[], draftsErasedThrough: number, latest: number): ContentTimeline {
    let stages: ItemStages = { draft: null, published: null };
    const snapshots = headers.map((header): StageSnapshot => {
      const version = header.revision + 1;
      const at = header.metadata.timestamp;
      stages = nextStages(stages, { ...item, type: header.type, at, version, body: null });
      return { version, at, draft: version <= draftsErasedThrough ? null : stages.draft, published: stages.published };
    });
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
