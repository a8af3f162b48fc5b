import { describeAuditTrail } from './audit.suite';

describeAuditTrail('postgres');
