import { describeLocales } from './locales.suite';

describeLocales('pglite');
