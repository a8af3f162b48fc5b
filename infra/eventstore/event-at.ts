import { positionToString, type RecordedEvent } from './port';

/** How a problem names an event: built only when there is a problem to name, never for every event checked. */
export const eventAt = (event: RecordedEvent): string => `stream ${event.stream} revision ${event.revision} at position ${positionToString(event.position)}`;
