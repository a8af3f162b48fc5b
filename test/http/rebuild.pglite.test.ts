import { describeRebuildAndRestart } from './rebuild.suite';

describeRebuildAndRestart('pglite');
