import { describeCleanStop } from './clean-stop.suite';

describeCleanStop('pglite');
