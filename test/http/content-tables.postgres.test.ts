import { describeContentTables } from './content-tables.suite';

describeContentTables('postgres');
