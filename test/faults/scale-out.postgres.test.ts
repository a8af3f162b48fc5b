import { describeScaleOut } from './scale-out.suite';

// The same with 1,000 pairs and the standby as read replica: scale-out.replica.postgres.test.ts.
describeScaleOut({ title: '', pairs: 300 });
