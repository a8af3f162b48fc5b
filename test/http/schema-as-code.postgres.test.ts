import { describeSchemaAsCode } from './schema-as-code.suite';

describeSchemaAsCode('postgres');
