import { describePlatform } from './platform.suite';

describePlatform('pglite');
