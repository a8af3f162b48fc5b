import { foldEvents, type Decider } from '../../src/domain/decider';
import { DomainError } from '../../src/domain/errors';

/** Given these past events, when this command, then these events (or this error). */
export function givenWhenThen<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return (given: Event[], when: Command) => decider.decide(when, foldEvents(decider, given));
}

/** The DomainError kind a call throws, or 'ok'. */
export function kindOf(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof DomainError ? error.kind : 'not a DomainError';
  }
}
