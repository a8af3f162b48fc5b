import { describeScheduler } from './scheduler.suite';

describeScheduler('pglite');
