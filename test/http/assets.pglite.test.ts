import { describeAssets } from './assets.suite';

describeAssets('pglite', 'fs');
describeAssets('pglite', 's3');
