import { openRoutedReadStore } from '../support/standby';
import { describeReadStoreConformance } from './readstore.suite';

// The queries on the standby; a test that stops it or pauses its replay (test/http/replica-reads) sends them to the primary meanwhile, with the same answers.
describeReadStoreConformance('PostgreSQL, queries on a streaming replica', openRoutedReadStore);
