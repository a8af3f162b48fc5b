import { describeContentUndo } from './content-undo.suite';

describeContentUndo('postgres');
