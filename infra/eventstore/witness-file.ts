import { canonicalJson } from './canonical-json';
import { type Checkpoint, checkpointDigest } from './chain-audit';

/** What a witness file and a witness POST say they are. */
export const WITNESS_KIND = 'cms-event-log-checkpoint';

/** A checkpoint as witnesses keep it: the signed body, its signature and its digest (what the next checkpoint names). */
export interface WitnessedCheckpoint extends Checkpoint {
  readonly kind: typeof WITNESS_KIND;
  readonly digest: string;
}

export function witnessed(checkpoint: Checkpoint): WitnessedCheckpoint {
  return { kind: WITNESS_KIND, id: checkpoint.id, body: checkpoint.body, signature: checkpoint.signature, digest: checkpointDigest(checkpoint.body) };
}

/** The text of a witness file and of a witness POST's body: canonical JSON, so one checkpoint always reads the same (PostgreSQL's jsonb keeps no key order). */
export function witnessText(checkpoint: Checkpoint): string {
  return `${canonicalJson(witnessed(checkpoint))}\n`;
}

/** Sorts as the ids do (up to 10^12 checkpoints: three centuries at one every 10 ms). */
export function witnessFileName(id: number): string {
  return `checkpoint-${String(id).padStart(12, '0')}.json`;
}
