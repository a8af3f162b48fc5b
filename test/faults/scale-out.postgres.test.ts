import { describeScaleOut } from './scale-out.suite';

describeScaleOut({ title: '' });
