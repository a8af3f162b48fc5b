import { describeContentTypes } from './content-types.suite';

describeContentTypes('postgres');
