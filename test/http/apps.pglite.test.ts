import { describeApps } from './apps.suite';

describeApps('pglite');
