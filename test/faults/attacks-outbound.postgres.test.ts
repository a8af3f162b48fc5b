import { describeOutboundAttacks } from './attacks-outbound.suite';

describeOutboundAttacks('postgres');
