import { describeErasure } from './erasure.suite';

describeErasure('postgres');
