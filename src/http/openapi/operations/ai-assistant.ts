import { z } from 'zod';
import { askBody } from '../../routes/ai-assistant';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { TAGS } from '../tags';

const TAG = TAGS.aiAssistant.name;

const startedRun = named('AiRunStarted', z.object({ threadId: z.string(), runId: z.string() }));
const runStatus = named(
  'AiRunStatus',
  z.discriminatedUnion('status', [
    z.object({ status: z.enum(['in_progress', 'completed']) }),
    z.object({ status: z.literal('failed'), error: z.string().describe('why the run ended without an answer') }),
  ]),
);
const answer = named('AiAnswer', z.object({ response: z.string().describe('Markdown') }));

export const aiAssistantOperations: DocumentedOperation[] = [
  {
    method: 'post',
    path: '/ai-assistant/thread',
    operationId: 'askAiAssistant',
    tag: TAG,
    summary: 'Ask in a new thread (threadId null) or an existing one; the answer is prepared in the background',
    access: 'ReadAccess',
    body: { schema: named('AiPromptRequest', askBody), example: { threadId: null, prompt: 'Summarise the articles published this week' } },
    responses: { 200: { description: 'poll the run, then read the response', schema: startedRun } },
    errors: { 404: 'the thread does not exist' },
  },
  {
    method: 'get',
    path: '/ai-assistant/thread/{threadId}/run/{runId}/status',
    operationId: 'getAiRunStatus',
    tag: TAG,
    summary: 'Status of a run: poll until completed or failed',
    access: 'ReadAccess',
    responses: { 200: { description: 'the status', schema: runStatus } },
    errors: { 404: 'the thread or the run does not exist' },
  },
  {
    method: 'get',
    path: '/ai-assistant/thread/{threadId}/response',
    operationId: 'getAiResponse',
    tag: TAG,
    summary: 'The answer to the latest prompt of the thread that has one',
    description:
      'An answer that drew on items of personal-data content types is kept sealed under those items\' keys: once one of them is erased, it can no longer be read (410), and it is left out of the history a later prompt is asked with.',
    access: 'ReadAccess',
    responses: { 200: { description: 'the answer', schema: answer } },
    errors: { 404: 'the thread does not exist or has no completed answer yet', 410: 'the latest answer drew on a content item that was erased since' },
  },
];
