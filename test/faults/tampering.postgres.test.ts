import { describeTampering } from './tampering.suite';

describeTampering('postgres');
