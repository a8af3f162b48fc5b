import { describeWorkspaceQuotas } from './workspace-quotas.suite';

describeWorkspaceQuotas('postgres');
