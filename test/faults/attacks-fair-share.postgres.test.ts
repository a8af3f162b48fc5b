import { describeFairShare } from './attacks-fair-share.suite';

describeFairShare('postgres');
