import { describePlatform } from './platform.suite';

describePlatform('postgres');
