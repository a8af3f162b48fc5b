import { EventMacCheck } from '../../infra/eventstore/event-mac-check';
import { type MacMarker, macRequired, trustedMarker } from '../../infra/eventstore/event-mac';
import type { RecordedEvent } from '../../infra/eventstore/port';

/**
 * verify's check of the events' MACs (infra/eventstore/event-mac.ts): each one that carries a MAC
 * must verify, each one after the signed marker's position must carry one, and exactly the
 * marker's count of events may lie at or before it. A store without a marker predates MACs
 * unless some event carries one: then its marker was deleted. A marker whose signature fails is
 * reported and not used: then every event must carry a MAC.
 */
export class MacVerification {
  private readonly check: EventMacCheck;
  /** The marker when its signature verifies. */
  private readonly trusted: MacMarker | null;
  private withMac = 0;
  private before = 0;
  failed = 0;

  constructor(
    macKey: Buffer,
    private readonly marker: MacMarker | null,
    checkpointKey: Buffer,
  ) {
    this.trusted = trustedMarker(marker, checkpointKey);
    this.check = new EventMacCheck(macKey, this.trusted);
  }

  /** A problem with `event`'s MAC (`content`: its content digest), or null. */
  inspect(event: RecordedEvent, content: Buffer): string | null {
    if (event.mac !== undefined) this.withMac++;
    if (this.trusted && !macRequired(this.trusted, event.position)) this.before++;
    // Without a marker only the MACs present are checked: the missing marker is the one problem to name.
    const problem = this.marker || event.mac !== undefined ? this.check.problem(event, content) : null;
    if (problem) this.failed++;
    return problem;
  }

  /** Report lines, after every event was inspected; problems about the marker go to `add`. */
  report(events: number, add: (problem: string) => void): string[] {
    const { marker, trusted } = this;
    if (!marker) {
      if (this.withMac === 0) return ["macs: none of the events carries a MAC: the store predates them (the next start of the service marks where they begin)"];
      add(`the MAC marker (es_mac_marker) is missing while ${this.withMac} events carry a MAC: it was deleted, so that events without a MAC would pass as older than MACs`);
      return [];
    }
    if (!trusted) {
      add("the MAC marker's signature does not match: it was altered or forged (or ENCRYPTION_KEY is not its store's); every event is held to carry a MAC");
      return this.failed > 0 ? [`macs: ${this.failed} event${this.failed === 1 ? '' : 's'} whose MAC is missing or does not verify (listed below)`] : [];
    }
    if (this.before !== marker.body.eventsBefore) {
      add(
        `the MAC marker counts ${marker.body.eventsBefore} events written before MACs (up to position ${marker.body.after ?? 'none'}); the log holds ${this.before} there: ` +
          (this.before > marker.body.eventsBefore ? 'events were inserted into the history before MACs' : 'events written before MACs were removed'),
      );
    }
    if (this.failed > 0) return [`macs: ${this.failed} event${this.failed === 1 ? '' : 's'} whose MAC is missing or does not verify (listed below)`];
    const after = events - this.before;
    return [`macs: each of the ${after} events after position ${marker.body.after ?? 'none'} (MACs began ${marker.body.at}) carries a MAC that verifies; ${this.before} events predate MACs`];
  }
}
