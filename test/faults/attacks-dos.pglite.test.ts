import { describeAttacks } from './attacks-dos.suite';

describeAttacks('pglite');
