import { describeAssets } from './assets.suite';

describeAssets('postgres', 'fs');
describeAssets('postgres', 's3');
