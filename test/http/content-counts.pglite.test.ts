import { describeContentCounts } from './content-counts.suite';

describeContentCounts('pglite');
