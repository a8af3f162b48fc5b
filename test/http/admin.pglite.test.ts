import { describeAdminApi } from './admin.suite';

describeAdminApi('pglite');
