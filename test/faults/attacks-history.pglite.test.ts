import { describeHistoryAttacks } from './attacks-history.suite';

describeHistoryAttacks('pglite');
