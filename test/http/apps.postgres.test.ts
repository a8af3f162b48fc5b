import { describeApps } from './apps.suite';

describeApps('postgres');
