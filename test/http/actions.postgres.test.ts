import { describeActions } from './actions.suite';

describeActions('postgres');
