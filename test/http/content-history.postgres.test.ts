import { describeContentHistory } from './content-history.suite';

describeContentHistory('postgres');
