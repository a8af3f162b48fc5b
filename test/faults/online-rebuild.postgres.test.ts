import { describeOnlineRebuild } from './online-rebuild.suite';

describeOnlineRebuild('postgres');
