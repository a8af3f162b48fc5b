import { contentDigest } from './chain';
import { eventMacValid, macRequired, type MacMarker } from './event-mac';
import { eventAt } from './event-at';
import type { RecordedEvent } from './port';

/** Checks each event's MAC (event-mac.ts) as stored: for `cms verify` and for the live projections. */
export class EventMacCheck {
  constructor(
    readonly key: Buffer,
    readonly marker: MacMarker | null,
  ) {}

  /**
   * What is wrong with `event`'s MAC, or null: it verifies, or the event predates MACs and carries
   * none. `content`: its content digest, when the caller has it already (verify, for the chain).
   */
  problem(event: RecordedEvent, content?: Buffer): string | null {
    if (event.mac === undefined) {
      if (!macRequired(this.marker, event.position)) return null;
      const since = !this.marker
        ? 'the MAC marker is missing, so every event must'
        : this.marker.body.after === null
          ? 'every event carries one (the signed MAC marker: MACs began with the log)'
          : `every event after position ${this.marker.body.after} carries one (the signed MAC marker)`;
      return `${eventAt(event)}: carries no MAC, though ${since}: it was written past the service, or its MAC removed`;
    }
    if (eventMacValid(this.key, content ?? contentDigest(event), event.mac)) return null;
    return `${eventAt(event)}: its MAC does not verify: it was written past the service (with the database's grants, not its key) or changed since`;
  }
}
