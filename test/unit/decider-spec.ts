import { foldEvents, type Decider } from '../../src/domain/decider';

/** Given these past events, when this command, then these events (or this error). */
export function givenWhenThen<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return (given: Event[], when: Command) => decider.decide(when, foldEvents(decider, given));
}
