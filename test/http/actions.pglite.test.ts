import { describeActions } from './actions.suite';

describeActions('pglite');
