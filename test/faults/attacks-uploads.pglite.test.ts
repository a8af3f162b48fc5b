import { describeUploadAttacks } from './attacks-uploads.suite';

describeUploadAttacks('pglite');
