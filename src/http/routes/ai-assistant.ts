import { Router } from 'express';
import { z } from 'zod';
import type { AiAssistantCommands } from '../../../commands/ai-assistant';
import type { AiAssistantQueries } from '../../../queries/ai-assistant';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { parseInput } from '../validate';

export const MAX_PROMPT_LENGTH = 8000;

export const askBody = z.strictObject({
  threadId: z.string({ error: 'must be a string or null' }).min(1, 'must not be empty').max(200).nullish(),
  prompt: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`),
});

export interface AiAssistantServices {
  readonly commands: AiAssistantCommands;
  readonly queries: AiAssistantQueries;
}

/** Prompts are answered in the background: POST starts a run, the client polls its status, then reads the answer. */
export function aiAssistantRouter(access: AccessGuard, services: AiAssistantServices): Router {
  const { commands, queries } = services;
  const router = Router();

  router.post('/ai-assistant/thread', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(askBody, req.body);
    const { threadId, runId } = await commands.ask(workspaceId, body.threadId ?? null, body.prompt, commandContext(req, res));
    res.json({ threadId, runId });
  });

  router.get('/ai-assistant/thread/:threadId/run/:runId/status', access('ReadAccess'), async (req, res) => {
    res.json(await queries.runStatus(workspacePrincipal(res).workspaceId, pathParam(req, 'threadId'), pathParam(req, 'runId')));
  });

  router.get('/ai-assistant/thread/:threadId/response', access('ReadAccess'), async (req, res) => {
    res.json(await queries.latestResponse(workspacePrincipal(res).workspaceId, pathParam(req, 'threadId')));
  });

  return router;
}
