import { describeReleases } from './releases.suite';

describeReleases('postgres');
