import { describeHolder, type LockHolder } from './holder';

/** A directory this process holds until release() or its end. */
export interface DataDirLock {
  /** Says what this process does with the directory (named to a refused process). */
  describe(purpose: string): Promise<void>;
  release(): Promise<void>;
}

export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
    hint = '',
  ) {
    super(`DATA_DIR ${dir} is in use by another process: ${describeHolder(holder)}${hint}`);
    this.name = 'DataDirInUse';
  }
}
