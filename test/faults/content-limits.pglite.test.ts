import { describeContentLimits } from './content-limits.suite';

describeContentLimits('pglite');
