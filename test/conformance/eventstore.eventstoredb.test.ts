import { EventStoreDbEventStore } from '../../infra/eventstore/eventstoredb';
import { describeEventStoreConformance } from './eventstore.suite';

describeEventStoreConformance('EventStoreDB', async () => {
  const url = process.env.EVENTSTORE_URL;
  if (!url) throw new Error('EVENTSTORE_URL is not set');
  const store = EventStoreDbEventStore.connect(url);
  return { store, close: () => store.close() };
}, { appendManyAtomic: false });
