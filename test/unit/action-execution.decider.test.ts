import { actionExecutionDecider, type ActionExecutionCommand, type CallbackReport, INTERRUPTED_CALL_ERROR } from '../../src/domain/action-execution/decider';
import { EXECUTION_RECORD_LIFETIME_MS, INTERRUPTED_CALL_GRACE_MS, type ActionExecutionEvent } from '../../src/domain/action-execution/events';
import { givenWhenThen, kindOf } from './decider-spec';

const decide = givenWhenThen(actionExecutionDecider);
const T0 = Date.parse('2024-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const ref = { workspaceId: 'ws', contentId: 'item-1', actionId: 'translate' };
const operation = (operationId: string) => ({ ...ref, operationId });

const started = (operationId = 'op-1', at = T0): ActionExecutionEvent => ({ type: 'ActionStarted', data: { ...operation(operationId), contentType: 'Article', at: iso(at) } });
const completed = (status: 'Succeeded' | 'Failed', operationId = 'op-1'): ActionExecutionEvent => ({
  type: 'ActionCompleted',
  data: { ...operation(operationId), status, result: null, error: null, message: null, progress: null, at: iso(T0 + 1000) },
});

const start = (operationId = 'op-2', at = T0 + 1000): ActionExecutionCommand => ({ type: 'StartAction', data: { ...operation(operationId), contentType: 'Article', at: iso(at) } });
const report = (partial: Partial<CallbackReport>, operationId = 'op-1', at = T0 + 2000): ActionExecutionCommand => ({
  type: 'ReportActionCallback',
  data: { ...operation(operationId), report: { success: true, result: null, error: null, message: null, progress: null, ...partial }, at: iso(at) },
});
const failCall = (operationId = 'op-1'): ActionExecutionCommand => ({ type: 'FailActionCall', data: { ...operation(operationId), error: 'answered 500', at: iso(T0 + 500) } });
/** Started with a deadline for the call's answer, as this version records it. */
const CALL_MS = 10_000;
const startedWithDeadline = (operationId = 'op-1'): ActionExecutionEvent => ({
  type: 'ActionStarted',
  data: { ...operation(operationId), contentType: 'Article', at: iso(T0), callDeadline: iso(T0 + CALL_MS) },
});
const accepted = (operationId = 'op-1'): ActionExecutionEvent => ({ type: 'ActionCallAccepted', data: { ...operation(operationId), at: iso(T0 + 300) } });
const acceptCall = (operationId = 'op-1'): ActionExecutionCommand => ({ type: 'AcceptActionCall', data: { ...operation(operationId), at: iso(T0 + 300) } });
/** The first moment a call never answered counts as interrupted. */
const OVERDUE = T0 + CALL_MS + INTERRUPTED_CALL_GRACE_MS;

describe('action execution decider (the spec state table)', () => {
  it('given no record, when executed, then a Running record starts', () => {
    expect(decide([], start())).toEqual([{ type: 'ActionStarted', data: { ...operation('op-2'), contentType: 'Article', at: iso(T0 + 1000) } }]);
  });

  it('given a Running record, when executed again, then 409', () => {
    expect(kindOf(() => decide([started()], start()))).toBe('conflict');
  });

  it('given a Running record older than 7 days, when executed, then it starts again', () => {
    expect(decide([started()], start('op-2', T0 + EXECUTION_RECORD_LIFETIME_MS))).toHaveLength(1);
    expect(kindOf(() => decide([started()], start('op-2', T0 + EXECUTION_RECORD_LIFETIME_MS - 1)))).toBe('conflict');
  });

  it.each(['Succeeded', 'Failed'] as const)('given a %s record, when executed, then a new record starts', (status) => {
    expect(decide([started(), completed(status)], start())[0]!.type).toBe('ActionStarted');
  });

  it('given Running, when a callback reports progress below 100, then only progress and message change', () => {
    expect(decide([started()], report({ progress: 40, message: 'half way', result: 'ignored' }))).toEqual([
      { type: 'ActionProgressed', data: { ...operation('op-1'), progress: 40, message: 'half way', at: iso(T0 + 2000) } },
    ]);
  });

  it('given Running, when a failing callback reports progress below 100, then it is progress too', () => {
    expect(decide([started()], report({ success: false, progress: 10, error: 'not yet' }))[0]!.type).toBe('ActionProgressed');
  });

  it.each([null, 100])('given Running, when success true and progress %p, then Succeeded with the result', (progress) => {
    expect(decide([started()], report({ success: true, progress, result: 'done', error: 'ignored' }))).toEqual([
      { type: 'ActionCompleted', data: { ...operation('op-1'), status: 'Succeeded', result: 'done', error: null, message: null, progress, at: iso(T0 + 2000) } },
    ]);
  });

  it('given Running, when success false without progress, then Failed with the error', () => {
    expect(decide([started()], report({ success: false, error: 'quota', result: 'ignored' }))).toEqual([
      { type: 'ActionCompleted', data: { ...operation('op-1'), status: 'Failed', result: null, error: 'quota', message: null, progress: null, at: iso(T0 + 2000) } },
    ]);
  });

  it.each(['Succeeded', 'Failed'] as const)('given %s, when any callback arrives, then 409', (status) => {
    expect(kindOf(() => decide([started(), completed(status)], report({ progress: 10 })))).toBe('conflict');
    expect(kindOf(() => decide([started(), completed(status)], report({ success: true })))).toBe('conflict');
  });

  it('given no record, an older operation or a record past 7 days, when a callback arrives, then 404', () => {
    expect(kindOf(() => decide([], report({})))).toBe('not_found');
    expect(kindOf(() => decide([started('op-1'), completed('Failed'), started('op-2')], report({}, 'op-1')))).toBe('not_found');
    expect(kindOf(() => decide([started()], report({}, 'op-1', T0 + EXECUTION_RECORD_LIFETIME_MS)))).toBe('not_found');
  });

  it('given Running, when the call is refused, then Failed with the reason; once ended, nothing more', () => {
    expect(decide([started()], failCall())).toEqual([
      { type: 'ActionCompleted', data: { ...operation('op-1'), status: 'Failed', result: null, error: 'answered 500', message: null, progress: null, at: iso(T0 + 500) } },
    ]);
    expect(decide([started(), completed('Succeeded')], failCall())).toEqual([]);
    expect(decide([started('op-2')], failCall('op-1'))).toEqual([]);
  });

  it('given Running whose call was never answered and is long overdue (the process stopped), when executed, then it ends Failed and a new record starts', () => {
    expect(decide([startedWithDeadline()], start('op-2', OVERDUE))).toEqual([
      { type: 'ActionCompleted', data: { ...operation('op-1'), status: 'Failed', result: null, error: INTERRUPTED_CALL_ERROR, message: null, progress: null, at: iso(OVERDUE) } },
      { type: 'ActionStarted', data: { ...operation('op-2'), contentType: 'Article', at: iso(OVERDUE) } },
    ]);
    expect(kindOf(() => decide([startedWithDeadline()], start('op-2', OVERDUE - 1)))).toBe('conflict');
  });

  it('given Running whose service took the call or called back, when executed however late, then 409 until the record expires', () => {
    const progressed: ActionExecutionEvent = { type: 'ActionProgressed', data: { ...operation('op-1'), progress: 5, message: null, at: iso(T0 + 900) } };
    for (const history of [[startedWithDeadline(), accepted()], [startedWithDeadline(), progressed]]) {
      expect(kindOf(() => decide(history, start('op-2', OVERDUE + 3_600_000)))).toBe('conflict');
      expect(decide(history, start('op-2', T0 + EXECUTION_RECORD_LIFETIME_MS))).toHaveLength(1);
    }
  });

  it('given Running recorded before call deadlines were (no callDeadline), when executed late, then 409 as before', () => {
    expect(kindOf(() => decide([started()], start('op-2', OVERDUE + 3_600_000)))).toBe('conflict');
  });

  it('given Running, when the call is taken, then ActionCallAccepted once; nothing for an ended, replaced or already accepted execution', () => {
    expect(decide([startedWithDeadline()], acceptCall())).toEqual([{ type: 'ActionCallAccepted', data: { ...operation('op-1'), at: iso(T0 + 300) } }]);
    expect(decide([startedWithDeadline(), accepted()], acceptCall())).toEqual([]);
    expect(decide([startedWithDeadline(), completed('Succeeded')], acceptCall())).toEqual([]);
    expect(decide([startedWithDeadline('op-2')], acceptCall('op-1'))).toEqual([]);
  });

  it('given Running whose call was never answered, when the sweep asks to end it, then Failed only once it is long overdue and still Running', () => {
    const end = (at: number, operationId = 'op-1'): ActionExecutionCommand => ({ type: 'EndInterruptedAction', data: { ...operation(operationId), at: iso(at) } });
    expect(decide([startedWithDeadline()], end(OVERDUE))).toEqual([
      { type: 'ActionCompleted', data: { ...operation('op-1'), status: 'Failed', result: null, error: INTERRUPTED_CALL_ERROR, message: null, progress: null, at: iso(OVERDUE) } },
    ]);
    expect(decide([startedWithDeadline()], end(OVERDUE - 1))).toEqual([]);
    expect(decide([startedWithDeadline(), accepted()], end(OVERDUE))).toEqual([]);
    expect(decide([startedWithDeadline(), completed('Succeeded')], end(OVERDUE))).toEqual([]);
    expect(decide([startedWithDeadline('op-2')], end(OVERDUE, 'op-1'))).toEqual([]);
    expect(decide([started()], end(OVERDUE))).toEqual([]);
  });
});
