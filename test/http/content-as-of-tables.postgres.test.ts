import { describeContentAsOfTables } from './content-as-of-tables.suite';

describeContentAsOfTables('postgres');
