import { describeReferences } from './references.suite';

describeReferences('postgres');
