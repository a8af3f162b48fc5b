import { describeBoundedHistory } from './bounded-history.suite';

describeBoundedHistory('postgres');
