import { describeReleaseDetail } from './release-detail.suite';

describeReleaseDetail('postgres');
