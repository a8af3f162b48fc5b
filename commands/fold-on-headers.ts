import type { EventOutline, RecordedEvent } from '../infra/eventstore/port';
import type { DomainEvent } from './aggregate';

/** A member of an event's data that is not read yet: a state folded on headers holds these where it holds values. */
class Hole {
  constructor(
    readonly revision: number,
    readonly member: string,
  ) {}
}

/** Revisions whose events are read together when fewer than this many others lie between them. */
const READ_TOGETHER_GAP = 8;

/**
 * Folds a stream from its headers (types, no data) with an `evolve` that copies the values its
 * events carry into the state and never looks at them (content: the draft is the last draft
 * saved, whatever it holds). Each event's data stands in as holes, one per member `evolve`
 * reads; the state that comes out names the few events whose values it kept, and only those
 * are read whole (`read`: a range of revisions). So an item saved a thousand times costs a
 * read of its headers and of the last draft and published version, not of a thousand values.
 */
export async function foldOnHeaders<State>(
  headers: readonly EventOutline[],
  initialState: State,
  evolve: (state: State, event: DomainEvent) => State,
  read: (fromRevision: number, maxCount: number) => Promise<readonly RecordedEvent[]>,
  parse: (event: DomainEvent) => DomainEvent,
  /** Events already read whole (the stream's tail), by revision: not read again. */
  known: ReadonlyMap<number, DomainEvent> = new Map(),
): Promise<State> {
  let state = initialState;
  for (const header of headers) {
    state = evolve(state, { type: header.type, data: holesFor(header.revision) });
    if (state === undefined) throw new Error(`event ${header.revision} of ${header.stream} is a ${header.type}, which this stream's aggregate does not know`);
  }
  const holes: Hole[] = [];
  collectHoles(state, holes);
  if (holes.length === 0) return state;
  const missing = [...new Set(holes.map((hole) => hole.revision))].filter((revision) => !known.has(revision));
  const events = new Map([...known, ...(await readRevisions(missing, read, parse))]);
  return fillHoles(state, events) as State;
}

/** Data whose every member is a hole of this revision. */
function holesFor(revision: number): unknown {
  return new Proxy(
    {},
    {
      get: (_target, member) => (typeof member === 'string' ? new Hole(revision, member) : undefined),
    },
  );
}

function collectHoles(value: unknown, into: Hole[]): void {
  if (value instanceof Hole) into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectHoles(item, into);
  else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) collectHoles(member, into);
}

/** The events at `revisions`, read in as few ranges as their gaps allow, and parsed. */
async function readRevisions(
  revisions: number[],
  read: (fromRevision: number, maxCount: number) => Promise<readonly RecordedEvent[]>,
  parse: (event: DomainEvent) => DomainEvent,
): Promise<Map<number, DomainEvent>> {
  const sorted = revisions.sort((a, b) => a - b);
  const ranges: { from: number; to: number }[] = [];
  for (const revision of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && revision - last.to <= READ_TOGETHER_GAP) last.to = revision;
    else ranges.push({ from: revision, to: revision });
  }
  const events = new Map<number, DomainEvent>();
  if (sorted.length === 0) return events;
  const wanted = new Set(sorted);
  for (const { from, to } of ranges) {
    for (const event of await read(from, to - from + 1)) if (wanted.has(event.revision)) events.set(event.revision, parse(event));
  }
  for (const revision of sorted) if (!events.has(revision)) throw new Error(`event ${revision} was in the stream's headers but could not be read`);
  return events;
}

/** `value` with each hole replaced by the member of the event it stands for; the values put in are not walked. */
function fillHoles(value: unknown, events: ReadonlyMap<number, DomainEvent>): unknown {
  if (value instanceof Hole) return (events.get(value.revision)!.data as Record<string, unknown>)[value.member];
  if (Array.isArray(value)) return value.map((item) => fillHoles(item, events));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([member, inner]) => [member, fillHoles(inner, events)]));
  return value;
}
