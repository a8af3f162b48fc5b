import { type QueryShape, shapeOf, type ShapeInput } from './query-shape';

/**
 * Every content query shape this process served, per content type, with how often and how long:
 * since it was first seen, and over the recent window (the current window and the one before, so
 * between one and two windows' worth). In memory and bounded: a tenant can send endless distinct
 * shapes, so a type keeps at most `perType` and the process `total`; a full type forgets its least
 * used shape (fewest recent queries, then the longest unseen), and when the process is full the
 * workspace holding the most shapes forgets its least used one, so one tenant's flood evicts its
 * own shapes before anyone else's.
 */
export interface ShapeStats {
  readonly shape: QueryShape;
  readonly count: number;
  readonly totalMs: number;
  readonly recentCount: number;
  readonly recentTotalMs: number;
  readonly firstSeen: number;
  readonly lastSeen: number;
}

export interface RecorderLimits {
  readonly perType: number;
  readonly total: number;
  /** How long one window of recent figures lasts. */
  readonly windowMs: number;
}

export const DEFAULT_RECORDER_LIMITS: Omit<RecorderLimits, 'windowMs'> = { perType: 64, total: 4096 };

interface Entry {
  readonly shape: QueryShape;
  count: number;
  totalMs: number;
  firstSeen: number;
  lastSeen: number;
  windowStart: number;
  windowCount: number;
  windowTotalMs: number;
  previousCount: number;
  previousTotalMs: number;
}

interface TypeShapes {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly entries: Map<string, Entry>;
}

export interface TypeRef {
  readonly workspaceId: string;
  readonly contentType: string;
}

const typeId = (workspaceId: string, contentType: string) => `${workspaceId}\u0000${contentType}`;

export class QueryShapeRecorder {
  private readonly types = new Map<string, TypeShapes>();
  /** Shapes held per workspace, to find the largest when the process is full. */
  private readonly perWorkspace = new Map<string, number>();
  private size = 0;

  constructor(
    private readonly limits: RecorderLimits,
    private readonly now: () => number,
  ) {}

  record(workspaceId: string, contentType: string, shape: QueryShape, elapsedMs: number): void {
    const now = this.now();
    const id = typeId(workspaceId, contentType);
    let type = this.types.get(id);
    if (!type) {
      type = { workspaceId, contentType, entries: new Map() };
      this.types.set(id, type);
    }
    let entry = type.entries.get(shape.key);
    if (!entry) {
      if (type.entries.size >= this.limits.perType) this.evictFrom([type], now);
      else if (this.size >= this.limits.total) this.evictFromLargestWorkspace(now);
      // An eviction that emptied the type forgot it.
      this.types.set(id, type);
      entry = { shape, count: 0, totalMs: 0, firstSeen: now, lastSeen: now, windowStart: now, windowCount: 0, windowTotalMs: 0, previousCount: 0, previousTotalMs: 0 };
      type.entries.set(shape.key, entry);
      this.size += 1;
      this.perWorkspace.set(workspaceId, (this.perWorkspace.get(workspaceId) ?? 0) + 1);
    }
    this.rotate(entry, now);
    entry.count += 1;
    entry.totalMs += elapsedMs;
    entry.windowCount += 1;
    entry.windowTotalMs += elapsedMs;
    entry.lastSeen = now;
  }

  /** The type's shapes, most queried recently first. */
  shapes(workspaceId: string, contentType: string): ShapeStats[] {
    const type = this.types.get(typeId(workspaceId, contentType));
    if (!type) return [];
    const now = this.now();
    return [...type.entries.values()].map((entry) => this.stats(entry, now)).sort((a, b) => b.recentCount - a.recentCount || b.lastSeen - a.lastSeen);
  }

  /** Every type with shapes. */
  recordedTypes(): TypeRef[] {
    return [...this.types.values()].map(({ workspaceId, contentType }) => ({ workspaceId, contentType }));
  }

  get shapeCount(): number {
    return this.size;
  }

  private stats(entry: Entry, now: number): ShapeStats {
    this.rotate(entry, now);
    return {
      shape: entry.shape,
      count: entry.count,
      totalMs: entry.totalMs,
      recentCount: entry.windowCount + entry.previousCount,
      recentTotalMs: entry.windowTotalMs + entry.previousTotalMs,
      firstSeen: entry.firstSeen,
      lastSeen: entry.lastSeen,
    };
  }

  /** Moves the window on: the current one becomes the previous one, or both are over. */
  private rotate(entry: Entry, now: number): void {
    const elapsed = now - entry.windowStart;
    if (elapsed < this.limits.windowMs) return;
    const oneOver = elapsed < 2 * this.limits.windowMs;
    entry.previousCount = oneOver ? entry.windowCount : 0;
    entry.previousTotalMs = oneOver ? entry.windowTotalMs : 0;
    entry.windowCount = 0;
    entry.windowTotalMs = 0;
    entry.windowStart = oneOver ? entry.windowStart + this.limits.windowMs : now;
  }

  private evictFromLargestWorkspace(now: number): void {
    let largest: string | null = null;
    for (const [workspaceId, count] of this.perWorkspace) if (largest === null || count > this.perWorkspace.get(largest)!) largest = workspaceId;
    this.evictFrom([...this.types.values()].filter((type) => type.workspaceId === largest), now);
  }

  /** Forgets the least used shape of `types`: fewest recent queries, then seen longest ago. */
  private evictFrom(types: readonly TypeShapes[], now: number): void {
    let victim: { type: TypeShapes; entry: Entry; recent: number } | null = null;
    for (const type of types) {
      for (const entry of type.entries.values()) {
        const recent = this.stats(entry, now).recentCount;
        if (!victim || recent < victim.recent || (recent === victim.recent && entry.lastSeen < victim.entry.lastSeen)) victim = { type, entry, recent };
      }
    }
    if (!victim) return;
    victim.type.entries.delete(victim.entry.shape.key);
    this.size -= 1;
    const left = this.perWorkspace.get(victim.type.workspaceId)! - 1;
    if (left === 0) this.perWorkspace.delete(victim.type.workspaceId);
    else this.perWorkspace.set(victim.type.workspaceId, left);
    if (victim.type.entries.size === 0) this.types.delete(typeId(victim.type.workspaceId, victim.type.contentType));
  }
}

/** Runs `run` and records its shape and time with `recorder` (none: just runs it). */
export async function recordShape<T>(recorder: QueryShapeRecorder | null, workspaceId: string, contentType: string, shape: ShapeInput, run: () => Promise<T>): Promise<T> {
  if (!recorder) return run();
  const started = performance.now();
  try {
    return await run();
  } finally {
    recorder.record(workspaceId, contentType, shapeOf(shape), performance.now() - started);
  }
}
