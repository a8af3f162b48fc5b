import { describeContentAsOf } from './content-as-of.suite';

describeContentAsOf('pglite');
