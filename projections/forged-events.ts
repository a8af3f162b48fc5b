import type { RecordedEvent } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import { handles, type Projector } from './projector';
import { PROJECTION_QUARANTINE, quarantined } from './quarantine';

/**
 * An event refused for its MAC (infra/eventstore/mac-checked.ts) is set aside for each read model
 * that would have applied it, as an event a read model cannot apply is: listed by
 * GET /admin/projections/quarantine, where an operator who finds it genuine may skip it. The
 * read models' checkpoints move past it with the next event projected.
 */
export async function quarantineForged(readStore: ReadStore, projectors: readonly Projector[], event: RecordedEvent, problem: string, at: Date): Promise<void> {
  const error = new Error(problem);
  await readStore.apply(
    projectors.filter((projector) => handles(projector, event.type)).map((projector) => ({ kind: 'upsert', collection: PROJECTION_QUARANTINE, document: quarantined(projector.name, event, error, at) })),
  );
}
