import { describeContentTables } from './content-tables.suite';

describeContentTables('pglite');
