import { describeChainUpgrade } from './chain-upgrade.suite';

describeChainUpgrade('postgres');
