/** What the two numbers of a printed log position are: a line for reports that show positions. */
export const POSITION_NOTE =
  'positions are written A/B: the transaction id and the sequence number of an event on PostgreSQL and the embedded store, its commit and prepare positions on EventStoreDB';
