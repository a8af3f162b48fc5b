import { describeReferences } from './references.suite';

describeReferences('pglite');
