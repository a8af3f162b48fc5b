import { describeLocales } from './locales.suite';

describeLocales('postgres');
