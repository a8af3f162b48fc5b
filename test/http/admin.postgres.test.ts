import { describeAdminApi } from './admin.suite';

describeAdminApi('postgres');
