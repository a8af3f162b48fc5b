import { describeReleaseDetail } from './release-detail.suite';

describeReleaseDetail('pglite');
