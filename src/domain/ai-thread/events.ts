import { z } from 'zod';

const threadRef = { workspaceId: z.string(), threadId: z.string() };
const runRef = { ...threadRef, runId: z.string() };

export const aiThreadStarted = z.object({ type: z.literal('AiThreadStarted'), data: z.object({ ...threadRef, at: z.string() }) });

/** A question asked in the thread; it starts a run that the assistant process answers in the background. */
export const aiPromptAdded = z.object({ type: z.literal('AiPromptAdded'), data: z.object({ ...runRef, prompt: z.string(), at: z.string() }) });

/**
 * An answer that drew on items of personal-data content types, sealed under those items' own
 * keys (infra/crypto/item-sealer.ts, ItemsSealed): erasing any of them leaves it unreadable.
 */
export const sealedAnswer = z.object({ items: z.array(z.object({ itemId: z.string(), share: z.string() }).readonly()).min(1).readonly(), value: z.string() }).readonly();
export type SealedAnswer = z.infer<typeof sealedAnswer>;

/** The answer, Markdown; empty when it is `sealed` (events written before sealing never are). */
export const aiRunCompleted = z.object({
  type: z.literal('AiRunCompleted'),
  data: z.object({ ...runRef, response: z.string(), sealed: sealedAnswer.optional(), at: z.string() }),
});

/** The run ended without an answer; `error` says why (e.g. the provider's status and message). */
export const aiRunFailed = z.object({ type: z.literal('AiRunFailed'), data: z.object({ ...runRef, error: z.string(), at: z.string() }) });

export const aiThreadEvent = z.discriminatedUnion('type', [aiThreadStarted, aiPromptAdded, aiRunCompleted, aiRunFailed]);
export type AiThreadEvent = z.infer<typeof aiThreadEvent>;

export const AI_RUN_STATUSES = ['in_progress', 'completed', 'failed'] as const;
export type AiRunStatus = (typeof AI_RUN_STATUSES)[number];

export const aiThreadStream = (workspaceId: string, threadId: string) => `ai-thread-${workspaceId}-${threadId}`;
