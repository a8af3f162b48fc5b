/** What the two numbers of a printed log position are, said once in reports that show positions. */
export const POSITION_NOTE =
  'a position is written A/B: on PostgreSQL and the embedded store the transaction id and the sequence number of an event (B counts the events), on EventStoreDB its commit and prepare positions';
