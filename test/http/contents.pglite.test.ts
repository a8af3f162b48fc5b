import { describeContents } from './contents.suite';

describeContents('pglite');
