import { foldEvents } from '../../src/domain/decider';
import { aiThreadDecider, type AiThreadCommand, exchangesBefore } from '../../src/domain/ai-thread/decider';
import { aiThreadEvent, type AiThreadEvent } from '../../src/domain/ai-thread/events';
import { givenWhenThen, kindOf } from './decider-spec';

const decide = givenWhenThen(aiThreadDecider);
const fold = (events: AiThreadEvent[]) => foldEvents(aiThreadDecider, events);
const thread = { workspaceId: 'ws', threadId: 'thread-1' };
const at = '2024-05-01T12:00:00.000Z';
const run = (runId: string) => ({ ...thread, runId });

const start = (runId: string, prompt: string): AiThreadCommand => ({ type: 'StartThread', data: { ...run(runId), prompt, at } });
const addPrompt = (runId: string, prompt: string, overrides: Partial<typeof thread> = {}): AiThreadCommand => ({
  type: 'AddPrompt',
  data: { ...run(runId), ...overrides, prompt, at },
});
const complete = (runId: string, response: string): AiThreadCommand => ({ type: 'CompleteRun', data: { ...run(runId), response, at } });
const fail = (runId: string, error: string): AiThreadCommand => ({ type: 'FailRun', data: { ...run(runId), error, at } });

const started: AiThreadEvent = { type: 'AiThreadStarted', data: { ...thread, at } };
const prompted = (runId: string, prompt: string): AiThreadEvent => ({ type: 'AiPromptAdded', data: { ...run(runId), prompt, at } });
const completed = (runId: string, response: string): AiThreadEvent => ({ type: 'AiRunCompleted', data: { ...run(runId), response, at } });
const failed = (runId: string, error: string): AiThreadEvent => ({ type: 'AiRunFailed', data: { ...run(runId), error, at } });

const oneRunInProgress = [started, prompted('run-1', 'Who keeps the lighthouse?')];
const oneRunAnswered = [...oneRunInProgress, completed('run-1', 'Ada does.')];

/** Each emitted event must survive the stream's schema unchanged. */
const expectParses = (events: AiThreadEvent[]) => {
  for (const event of events) expect(aiThreadEvent.parse(event)).toEqual(event);
};

describe('AI thread decider', () => {
  describe('StartThread', () => {
    it('given no thread, when started with a prompt, then the thread starts and its first run is in progress', () => {
      const events = decide([], start('run-1', 'Who keeps the lighthouse?'));
      expect(events).toEqual(oneRunInProgress);
      expectParses(events);
      expect(fold(events)).toEqual({
        exists: true,
        workspaceId: 'ws',
        runs: [{ runId: 'run-1', prompt: 'Who keeps the lighthouse?', status: 'in_progress', response: null }],
      });
    });

    it('given the thread it started, when started again, then nothing (a retried create)', () => {
      expect(decide(oneRunInProgress, start('run-1', 'Who keeps the lighthouse?'))).toEqual([]);
    });
  });

  describe('AddPrompt', () => {
    it('given an answered thread, when a prompt is added, then a new run is in progress after the first', () => {
      const events = decide(oneRunAnswered, addPrompt('run-2', 'And since when?'));
      expect(events).toEqual([prompted('run-2', 'And since when?')]);
      expectParses(events);
      const state = fold([...oneRunAnswered, ...events]);
      expect(state.exists && state.runs.map((r) => [r.runId, r.status])).toEqual([
        ['run-1', 'completed'],
        ['run-2', 'in_progress'],
      ]);
    });

    it('given no thread, when a prompt is added, then not found', () => {
      expect(kindOf(() => decide([], addPrompt('run-1', 'Hello?')))).toBe('not_found');
    });

    it("given another workspace's thread, when a prompt is added, then not found", () => {
      expect(kindOf(() => decide(oneRunAnswered, addPrompt('run-2', 'Hello?', { workspaceId: 'ws-other' })))).toBe('not_found');
    });

    it('given the prompt already added, when added again with its run id, then nothing', () => {
      expect(decide(oneRunInProgress, addPrompt('run-1', 'Who keeps the lighthouse?'))).toEqual([]);
    });
  });

  describe('CompleteRun and FailRun', () => {
    it('given a run in progress, when completed, then its answer is recorded', () => {
      const events = decide(oneRunInProgress, complete('run-1', 'Ada does.'));
      expect(events).toEqual([completed('run-1', 'Ada does.')]);
      expectParses(events);
      const state = fold([...oneRunInProgress, ...events]);
      expect(state.exists && state.runs[0]).toMatchObject({ status: 'completed', response: 'Ada does.' });
    });

    it('given a run in progress, when failed, then the reason is recorded and there is no answer', () => {
      const events = decide(oneRunInProgress, fail('run-1', 'AI provider answered 500: boom'));
      expect(events).toEqual([failed('run-1', 'AI provider answered 500: boom')]);
      expectParses(events);
      const state = fold([...oneRunInProgress, ...events]);
      expect(state.exists && state.runs[0]).toMatchObject({ status: 'failed', response: null });
    });

    it.each([
      ['completed', oneRunAnswered],
      ['failed', [...oneRunInProgress, failed('run-1', 'timed out')]],
    ])('given a %s run, when completed or failed again, then nothing (at-least-once)', (_status, history) => {
      expect(decide(history, complete('run-1', 'Another answer'))).toEqual([]);
      expect(decide(history, fail('run-1', 'Another failure'))).toEqual([]);
    });

    it('given no such run, when completed or failed, then not found', () => {
      expect(kindOf(() => decide(oneRunInProgress, complete('run-9', 'x')))).toBe('not_found');
      expect(kindOf(() => decide(oneRunInProgress, fail('run-9', 'x')))).toBe('not_found');
      expect(kindOf(() => decide([], complete('run-1', 'x')))).toBe('not_found');
    });
  });

  describe('exchangesBefore', () => {
    it('is the completed exchanges asked before the run, oldest first, without failed or later ones', () => {
      const history = [
        ...oneRunAnswered,
        prompted('run-2', 'Lost question'),
        failed('run-2', 'boom'),
        prompted('run-3', 'Since when?'),
        completed('run-3', 'Since 1901.'),
        prompted('run-4', 'Why?'),
        prompted('run-5', 'Later question'),
        completed('run-5', 'Later answer'),
      ];
      expect(exchangesBefore(fold(history), 'run-4')).toEqual([
        { prompt: 'Who keeps the lighthouse?', response: 'Ada does.' },
        { prompt: 'Since when?', response: 'Since 1901.' },
      ]);
      expect(exchangesBefore(fold(history), 'run-1')).toEqual([]);
      expect(exchangesBefore(fold([]), 'run-1')).toEqual([]);
    });
  });
});
