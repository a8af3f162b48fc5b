import { describeContentCounts } from './content-counts.suite';

describeContentCounts('postgres');
