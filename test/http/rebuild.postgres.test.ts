import { describeRebuildAndRestart } from './rebuild.suite';

describeRebuildAndRestart('postgres');
