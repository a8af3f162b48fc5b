import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson } from '../../infra/eventstore/canonical-json';
import { type Checkpoint, type CheckpointBody, checkpointSignatureValid } from '../../infra/eventstore/chain-audit';
import { WITNESS_KIND } from '../../infra/eventstore/witness-file';
import type { CheckpointWalk } from './verify-checkpoints';

/** A witness file is one checkpoint: well under this. */
const MAX_WITNESS_BYTES = 64 * 1024;
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits');
const position = z.string().regex(/^\d{1,20}\/\d{1,20}$/, 'must be a log position (commit/prepare)');

/** As signed: every member is kept exactly, none added (the signature covers the body whole). */
const checkpointBody = z.strictObject({
  kind: z.enum(['upgrade', 'periodic']),
  at: z.string().max(64),
  snapshot: z.string().max(100_000).regex(/^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20})*)?$/, 'must be a snapshot (xmin:xmax:xip,...)'),
  streams: z.number().int().min(0),
  events: z.number().int().min(0),
  digest: hex64,
  id: z.number().int().positive().optional(),
  previous: hex64.nullable().optional(),
  order: z.strictObject({ added: z.number().int().min(0), digest: hex64, last: position.nullable() }).optional(),
});

const witnessFile = z.object({
  kind: z.literal(WITNESS_KIND),
  id: z.number().int().positive(),
  body: checkpointBody,
  signature: hex64.nullable(),
});

/** Reads and checks a checkpoint an auditor kept (a witness file): its form here, its signature once the key is known. */
export async function readKeptCheckpoint(path: string): Promise<Checkpoint> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`verify --against: cannot read ${path}: ${error.code ?? error.message}`, { cause: error });
  });
  let text: string;
  try {
    const buffer = Buffer.alloc(MAX_WITNESS_BYTES + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_WITNESS_BYTES) throw new Error(`verify --against: ${path} is larger than a checkpoint (${MAX_WITNESS_BYTES} bytes at most)`);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`verify --against: ${path} is not JSON`);
  }
  const parsed = witnessFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`verify --against: ${path} is not a checkpoint witness file: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  return { id: parsed.data.id, body: parsed.data.body as CheckpointBody, signature: parsed.data.signature };
}

/** The newest checkpoint in a witness directory (files sort by id); null when it holds none. */
export async function newestWitnessFile(directory: string): Promise<string | null> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const newest = names.filter((name) => /^checkpoint-\d{12}\.json$/.test(name)).sort().at(-1);
  return newest ? join(directory, newest) : null;
}

const BODY_MEMBERS = ['id', 'kind', 'at', 'snapshot', 'streams', 'events', 'digest', 'previous', 'order'] as const;

/** The first member in which two checkpoints with one id differ, for the report. */
function firstDifference(kept: Checkpoint, stored: Checkpoint): string | null {
  for (const member of BODY_MEMBERS) {
    const [a, b] = [kept.body[member], stored.body[member]].map((value) => (value === undefined ? 'none' : canonicalJson(value)));
    if (a !== b) return `${member}: kept ${short(a!)}, stored ${short(b!)}`;
  }
  return kept.signature === stored.signature ? null : `signature: kept ${short(String(kept.signature))}, stored ${short(String(stored.signature))}`;
}

const short = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

/**
 * `verify --against <file>`: the checkpoint an auditor kept must be stored unchanged under its
 * id. From it on every checkpoint names its predecessor and was signed only once the log
 * extended it, and verify checks that the log extends the latest: so the log extends the kept
 * one. Refused when it is not stored, differs (naming the first difference), or predates the
 * checkpoints that name their predecessors (nothing then proves what came after it).
 */
export class AgainstCheck {
  private stored: Checkpoint | null = null;

  constructor(
    readonly kept: Checkpoint,
    readonly source: string,
  ) {}

  /** Throws when the kept checkpoint is not signed with this store's key: nothing can be proven against it. */
  checkSignature(key: Buffer): void {
    if (!checkpointSignatureValid(this.kept, key)) {
      throw new Error(`verify --against: the signature of checkpoint #${this.kept.id} in ${this.source} does not match: it was altered, or ENCRYPTION_KEY is not its store's`);
    }
  }

  inspect(checkpoint: Checkpoint): void {
    if (checkpoint.id === this.kept.id) this.stored = checkpoint;
  }

  report(walk: CheckpointWalk, addProblem: (problem: string) => void): string[] {
    const { kept } = this;
    const subject = `checkpoint #${kept.id} of ${kept.body.at} (${this.source})`;
    if (!this.stored) {
      const newest = walk.latest?.id ?? null;
      addProblem(
        newest === null || newest < kept.id
          ? `--against: the store holds no ${subject}: its newest is ${newest === null ? 'none' : `#${newest}`}, so the checkpoints after it were deleted, with the events only they covered`
          : `--against: the store holds no ${subject}: it was deleted`,
      );
      return [];
    }
    const difference = firstDifference(kept, this.stored);
    if (difference) {
      addProblem(`--against: the store's checkpoint #${kept.id} is not the kept ${subject}: ${difference}`);
      return [];
    }
    if (!walk.firstLinked || walk.firstLinked.id > kept.id + 1) {
      addProblem(`--against: ${subject} is stored unchanged, but predates the checkpoints that name their predecessor${walk.firstLinked ? ` (from #${walk.firstLinked.id})` : ''}: nothing proves the log extends it`);
      return [];
    }
    return [`against: ${subject} is stored unchanged; every checkpoint since names its predecessor and extends it, and the checks above and below cover the log up to the latest`];
  }
}
