import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../../infra/clock';
import type { Checkpoint } from '../../infra/eventstore/chain-audit';
import { witnessFileName, witnessText } from '../../infra/eventstore/witness-file';
import { OutboundError, type OutboundHttp } from '../../infra/outbound/http';
import { SIGNATURE_HEADER, signatureHeader } from '../../infra/outbound/signature';

/** A place outside the database that keeps each signed checkpoint. `publish` throws when it did not take it. */
export interface WitnessTarget {
  readonly name: 'dir' | 'url';
  publish(checkpoint: Checkpoint): Promise<void>;
}

/** The witness already holds another checkpoint under this id: the checkpoints were rewritten since it took that one. */
export class WitnessDiffers extends Error {
  constructor(
    readonly id: number,
    where: string,
  ) {
    super(`${where} already holds another checkpoint #${id} than the one just signed: the checkpoints were rewritten since it was witnessed`);
    this.name = 'WitnessDiffers';
  }
}

/**
 * CHECKPOINT_WITNESS_DIR: one JSON file per checkpoint, written whole (a temporary file linked
 * to its name, so a reader never sees half of one) and never replaced: a file already there
 * with other content is a WitnessDiffers.
 */
export class DirectoryWitness implements WitnessTarget {
  readonly name = 'dir';

  constructor(private readonly directory: string) {}

  async publish(checkpoint: Checkpoint): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const text = witnessText(checkpoint);
    const path = join(this.directory, witnessFileName(checkpoint.id));
    const temporary = join(this.directory, `.${witnessFileName(checkpoint.id)}.${randomBytes(6).toString('hex')}.tmp`);
    const file = await open(temporary, 'wx');
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await link(temporary, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if ((await readFile(path, 'utf8')) !== text) throw new WitnessDiffers(checkpoint.id, `the witness file ${path}`);
    } finally {
      await unlink(temporary);
    }
  }
}

export const WITNESS_TIMEOUT_MS = 10_000;

/** CHECKPOINT_WITNESS_URL: a POST of the witness JSON, signed with CHECKPOINT_WITNESS_SECRET as webhooks are (Svc-Signature); any 2xx takes it. */
export class HttpsWitness implements WitnessTarget {
  readonly name = 'url';

  constructor(
    private readonly url: string,
    private readonly secret: string,
    private readonly outbound: OutboundHttp,
    private readonly clock: Clock,
  ) {}

  async publish(checkpoint: Checkpoint): Promise<void> {
    const body = witnessText(checkpoint);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'headless-cms',
      [SIGNATURE_HEADER]: signatureHeader(this.secret, body, Math.floor(this.clock.now().getTime() / 1000)),
    };
    let status: number;
    try {
      status = (await this.outbound.send({ url: this.url, method: 'POST', headers, body, timeoutMs: WITNESS_TIMEOUT_MS, maxResponseBytes: 1024 })).status;
    } catch (error) {
      if (error instanceof OutboundError) throw new Error(`the witness at CHECKPOINT_WITNESS_URL did not answer: ${error.message}`, { cause: error });
      throw error;
    }
    if (status < 200 || status >= 300) throw new Error(`the witness at CHECKPOINT_WITNESS_URL answered ${status}`);
  }
}

export interface WitnessOptions {
  /** The first retry's wait, doubled at each failure up to `maxRetryMs`. */
  readonly retryMs: number;
  readonly maxRetryMs: number;
  /** Checkpoints kept per witness while it fails; beyond, the oldest are given up (each later one names its predecessor). */
  readonly maxPending: number;
}

export const DEFAULT_WITNESS_OPTIONS: WitnessOptions = { retryMs: 1000, maxRetryMs: 300_000, maxPending: 1000 };

export interface WitnessObserver {
  published(witness: WitnessTarget['name']): void;
  failed(witness: WitnessTarget['name'], error: Error): void;
  pending(witness: WitnessTarget['name'], count: number): void;
  differs(error: WitnessDiffers): void;
}

/**
 * Hands each signed checkpoint to every configured witness, in order, in the background: a
 * witness that fails is retried with a growing wait while later checkpoints queue behind it;
 * signing, and so writing, never waits for one.
 */
export class CheckpointWitnesses {
  private readonly queues: Map<WitnessTarget, Checkpoint[]>;
  private readonly draining = new Map<WitnessTarget, Promise<void>>();
  private readonly sleeping = new Map<WitnessTarget, () => void>();
  /** Set while `stop` ends the retries; the queues are kept for the next start. */
  private stopping = false;

  constructor(
    targets: readonly WitnessTarget[],
    private readonly observer: WitnessObserver,
    private readonly logger: Logger,
    private readonly options: WitnessOptions = DEFAULT_WITNESS_OPTIONS,
  ) {
    this.queues = new Map(targets.map((target) => [target, []]));
  }

  publish(checkpoint: Checkpoint): void {
    for (const [target, queue] of this.queues) {
      queue.push(checkpoint);
      if (queue.length > this.options.maxPending) {
        const dropped = queue.splice(0, queue.length - this.options.maxPending);
        this.logger.error({ witness: target.name, from: dropped[0]!.id, to: dropped.at(-1)!.id }, 'checkpoint witness: given up on checkpoints it never took');
      }
      this.observer.pending(target.name, queue.length);
      if (!this.draining.has(target)) this.draining.set(target, this.drain(target, queue).finally(() => this.draining.delete(target)));
    }
  }

  /**
   * Waits up to `timeoutMs` for every queued checkpoint to be taken (at a clean stop, or when
   * the lease is lost), then stops retrying; what is left stays queued for the next publish.
   */
  async stop(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.draining.values()), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    this.stopping = true;
    for (const wake of this.sleeping.values()) wake();
    await Promise.all(this.draining.values());
    this.stopping = false;
  }

  private async drain(target: WitnessTarget, queue: Checkpoint[]): Promise<void> {
    let failures = 0;
    while (queue.length > 0 && !this.stopping) {
      const checkpoint = queue[0]!;
      try {
        await target.publish(checkpoint);
        this.observer.published(target.name);
        failures = 0;
      } catch (error) {
        if (error instanceof WitnessDiffers) {
          this.observer.differs(error);
        } else {
          failures++;
          this.observer.failed(target.name, error as Error);
          this.logger.warn({ witness: target.name, checkpoint: checkpoint.id, err: error, failures }, 'checkpoint witness failed; retrying');
          await this.sleep(target, Math.min(this.options.maxRetryMs, this.options.retryMs * 2 ** (failures - 1)));
          continue;
        }
      }
      if (queue[0] === checkpoint) queue.shift();
      this.observer.pending(target.name, queue.length);
    }
  }

  /** A wait that a stop ends early. */
  private sleep(target: WitnessTarget, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeping.delete(target);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.sleeping.set(target, done);
    });
  }
}
