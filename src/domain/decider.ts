/**
 * An aggregate as three pure functions (the decider pattern): `decide` turns a command
 * and the current state into new events or throws a DomainError; `evolve` folds one
 * event into the state; `initialState` is the state of a stream with no events.
 */
export interface Decider<Command, Event, State> {
  readonly initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export function foldEvents<Event, State>(decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState);
}
