import { describeExportImportVerify } from './cli-export.suite';

describeExportImportVerify('pglite');
