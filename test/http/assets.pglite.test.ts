import { describeAssets } from './assets.suite';

describeAssets('pglite', 'fs');
