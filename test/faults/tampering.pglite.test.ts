import { describeTampering } from './tampering.suite';

describeTampering('pglite');
