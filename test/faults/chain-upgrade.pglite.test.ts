import { describeChainUpgrade, describeCheckpointsOfTheReleaseBefore } from './chain-upgrade.suite';

describeChainUpgrade('pglite');
describeCheckpointsOfTheReleaseBefore('pglite');
