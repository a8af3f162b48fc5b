import { describeScheduler } from './scheduler.suite';

describeScheduler('postgres');
