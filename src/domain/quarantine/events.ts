import { z } from 'zod';

/**
 * An operator's decisions about events a read model could not apply (projections/quarantine.ts).
 * The quarantine itself is the read side's own state, like its checkpoints; what an operator
 * did about it is history, kept in the log. `workspaceId` is the quarantined event's workspace,
 * so the decision shows in that workspace's audit feed.
 */
export const QUARANTINE_STREAM = 'projection-quarantine';

const quarantinedEventRef = z.object({
  quarantineId: z.string(),
  projection: z.string(),
  position: z.string(),
  eventId: z.string(),
  workspaceId: z.string().nullable(),
});

/** The read model goes on without the event, for good (until a rebuild applies it). */
export const quarantinedEventSkipped = z.object({
  type: z.literal('QuarantinedEventSkipped'),
  data: quarantinedEventRef.extend({ reason: z.string() }),
});

/** A rebuild of the read model was started to apply the event again (after the cause was fixed). */
export const quarantinedEventRetried = z.object({
  type: z.literal('QuarantinedEventRetried'),
  data: quarantinedEventRef.extend({ rebuildId: z.string() }),
});

export type QuarantineEvent = z.infer<typeof quarantinedEventSkipped> | z.infer<typeof quarantinedEventRetried>;
