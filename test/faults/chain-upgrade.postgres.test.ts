import { describeChainUpgrade, describeCheckpointsOfTheReleaseBefore } from './chain-upgrade.suite';

describeChainUpgrade('postgres');
describeCheckpointsOfTheReleaseBefore('postgres');
