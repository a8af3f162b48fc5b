import type { ChangeStream, Db } from 'mongodb';
import { isGroupCheckpoint } from '../../projections/group-checkpoint';
import type { ReadModelFeed, ReadModelMove } from '../../projections/read-model-moves';

/** How long a broken change stream waits before it is opened again. */
const REOPEN_DELAY_MS = 1000;

interface StoredCheckpoint {
  _id: string;
  commit: string;
  prepare: string;
}

/**
 * Moves of the live read models as a change stream on the checkpoints collection (MongoDB needs a
 * replica set for it, as for transactions). The group checkpoint is written last in each apply, so
 * its change means the batch is in; a change says where, not what: a follower forgets its whole
 * cache at each move. Nothing is published: the checkpoint write is the message.
 */
export class MongoReadModelFeed implements ReadModelFeed {
  private readonly streams = new Set<ChangeStream>();

  constructor(private readonly database: Db) {}

  async publish(): Promise<void> {}

  async follow(onMove: (move: ReadModelMove | null) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let current: ChangeStream | null = null;
    const open = () => {
      if (stopped) return;
      const stream = this.database
        .collection<StoredCheckpoint>('checkpoints')
        .watch([{ $match: { operationType: { $in: ['insert', 'replace', 'update'] } } }], { fullDocument: 'updateLookup' });
      current = stream;
      this.streams.add(stream);
      stream.on('change', (change) => {
        if (!('fullDocument' in change) || !change.fullDocument || !isGroupCheckpoint(change.fullDocument._id)) return;
        const { commit, prepare } = change.fullDocument;
        onMove({ position: { commit: BigInt(commit), prepare: BigInt(prepare) }, collections: [], documents: 'everything' });
      });
      stream.once('error', () => {
        this.streams.delete(stream);
        void stream.close().catch(() => undefined);
        if (stopped) return;
        setTimeout(() => {
          open();
          onMove(null);
        }, REOPEN_DELAY_MS).unref();
      });
    };
    open();
    return async () => {
      stopped = true;
      const stream = current as ChangeStream | null;
      if (stream) {
        this.streams.delete(stream);
        await stream.close().catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.streams].map((stream) => stream.close().catch(() => undefined)));
    this.streams.clear();
  }
}
