import { describeBoundedHistory } from './bounded-history.suite';

describeBoundedHistory('pglite');
