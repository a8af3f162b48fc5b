import { describeContents } from './contents.suite';

describeContents('postgres');
