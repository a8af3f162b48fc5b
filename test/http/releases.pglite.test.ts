import { describeReleases } from './releases.suite';

describeReleases('pglite');
