import { type ContentSecretQueries, invalidTotp } from '../queries/content-secrets';
import type { ContentQueries } from '../queries/content';
import type { AttemptLimiter } from '../queries/secret-attempts';
import { CONTENT_TYPE_KEY } from '../src/domain/content-type/definition';
import { DomainError, notFound } from '../src/domain/errors';
import {
  FAILED_OUTCOMES,
  type SecretAccessAttempt,
  type SecretAccessOutcome,
  secretAccessStream,
  totpCodeStream,
} from '../src/domain/secret-access/events';
import type { CommandContext, CommandRunner } from './aggregate';
import { totpCodeAggregate } from './aggregates';
import type { ReadRecords } from './read-records';

/** Who reads: a workspace key's request. */
export type ReaderContext = CommandContext & { readonly workspaceId: string };

/**
 * Decrypt and check of encrypted fields, guarded and recorded: each passes the attempt
 * limits of its credential and item, a decrypt's one-time password is accepted once per
 * workspace, and every outcome is recorded as an event (see ReadRecords for when the answer
 * waits for it).
 */
export class SecretReads {
  constructor(
    private readonly runner: CommandRunner,
    private readonly limiter: AttemptLimiter,
    private readonly secrets: ContentSecretQueries,
    private readonly content: ContentQueries,
    private readonly reads: ReadRecords,
  ) {}

  /** True when every given plaintext equals the stored value. */
  async check(reader: ReaderContext, contentType: string, itemId: string, plaintexts: Record<string, string>): Promise<boolean> {
    await this.content.assertExists(reader.workspaceId, contentType, itemId);
    return this.guarded(reader, { contentType, itemId, operation: 'check', fieldKeys: Object.keys(plaintexts) }, async (record) => {
      const match = await this.secrets.matches(reader.workspaceId, itemId, plaintexts);
      await record(match ? 'matched' : 'mismatched');
      return match;
    });
  }

  /** The code is judged before anything about the item is revealed; a good code is used up even when the item is missing. */
  async decrypt(reader: ReaderContext, contentType: string, itemId: string, fieldKeys: readonly string[], totpCode: string): Promise<Record<string, string | null>> {
    // A name no content type can have is refused before it reaches the attempt's record (a NUL, say, which the store cannot hold).
    if (!CONTENT_TYPE_KEY.test(contentType)) throw notFound(`content type ${contentType} does not exist`);
    return this.guarded(reader, { contentType, itemId, operation: 'decrypt', fieldKeys: [...fieldKeys] }, async (record) => {
      const accepted = await this.secrets.acceptedCode(reader.workspaceId, totpCode);
      if (!accepted) {
        await record('invalidCode');
        throw invalidTotp();
      }
      // The item is looked up while the code is used up (one round trip instead of two); what it finds counts only once the code is.
      const exists = this.content.exists(reader.workspaceId, contentType, itemId);
      exists.catch(() => undefined); // awaited below unless the code is refused; a failure then is not this request's answer
      try {
        const stream = totpCodeStream(reader.workspaceId, accepted.secretTag, accepted.step);
        await this.runner.create(totpCodeAggregate, stream, { type: 'UseTotpCode', workspaceId: reader.workspaceId, ...accepted }, reader, { waitForReadModels: false });
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'forbidden') await record('replayedCode');
        throw error;
      }
      if (!(await exists)) {
        await record('notFound');
        throw notFound(`content item ${itemId} does not exist in ${contentType}`);
      }
      const fields = await this.secrets.decrypt(reader.workspaceId, itemId, fieldKeys);
      await record('decrypted');
      return fields;
    });
  }

  /** Runs one attempt inside the limits; `record` appends its outcome (a failure is counted before the attempt ends). */
  private async guarded<T>(
    reader: ReaderContext,
    attempt: Omit<SecretAccessAttempt, 'workspaceId' | 'outcome'>,
    run: (record: (outcome: SecretAccessOutcome) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const release = await this.limiter.admit(reader.workspaceId, attempt.operation, reader.actor, attempt.itemId);
    const record = (outcome: SecretAccessOutcome) =>
      this.reads.record(
        secretAccessStream(reader.workspaceId, attempt.itemId),
        [{ type: 'SecretAccessAttempted', data: { workspaceId: reader.workspaceId, ...attempt, outcome } satisfies SecretAccessAttempt }],
        reader,
        { countsTowardLimits: FAILED_OUTCOMES.has(outcome) },
      );
    try {
      return await run(record);
    } finally {
      release();
    }
  }
}
