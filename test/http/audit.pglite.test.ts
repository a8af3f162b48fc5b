import { describeAuditTrail } from './audit.suite';

describeAuditTrail('pglite');
