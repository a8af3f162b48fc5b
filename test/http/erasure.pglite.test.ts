import { describeErasure } from './erasure.suite';

describeErasure('pglite');
