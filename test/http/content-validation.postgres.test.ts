import { describeContentValidation } from './content-validation.suite';

describeContentValidation('postgres');
