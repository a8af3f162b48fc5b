import { describeQueryAdvisor } from './query-advisor.suite';

describeQueryAdvisor('pglite');
