import type { Clock } from '../infra/clock';
import type { ImageSigningState } from '../projections/read-models/workspaces';
import { FIRST_IMAGE_SIGNING_GENERATION } from '../src/domain/workspace/events';
import type { WorkspaceQueries } from './workspaces';

/** A key for one purpose, derived from the workspace's data key (WorkspaceCipher.derivedKey). */
export type DeriveKey = (workspaceId: string, info: string) => Promise<Buffer>;

const NEVER_ROTATED: ImageSigningState = { generation: FIRST_IMAGE_SIGNING_GENERATION, previousKeyValidUntil: new Date(0).toISOString() };

/**
 * The keys that sign image URLs. Each is derived from the workspace's data key and the
 * generation the workspace read model holds, so no key is ever stored; a rotation moves to the
 * next generation and keeps the one before accepted for its grace period.
 */
export class ImageSigningKeys {
  constructor(
    private readonly workspaces: WorkspaceQueries,
    private readonly derive: DeriveKey,
    private readonly clock: Clock,
  ) {}

  /** The key new URLs are signed with; null when the workspace does not exist. */
  async current(workspaceId: string): Promise<Buffer | null> {
    const state = await this.state(workspaceId);
    return state ? this.key(workspaceId, state.generation) : null;
  }

  /** The keys a signature may be made with: the current one, and the one before until its grace period ends. None for a workspace that does not exist. */
  async accepted(workspaceId: string): Promise<Buffer[]> {
    const state = await this.state(workspaceId);
    if (!state) return [];
    const keys = [await this.key(workspaceId, state.generation)];
    if (Date.parse(state.previousKeyValidUntil) > this.clock.now().getTime()) keys.push(await this.key(workspaceId, state.generation - 1));
    return keys;
  }

  private async state(workspaceId: string): Promise<ImageSigningState | null> {
    const workspace = await this.workspaces.get(workspaceId);
    return workspace ? (workspace.imageSigning ?? NEVER_ROTATED) : null;
  }

  private key(workspaceId: string, generation: number): Promise<Buffer> {
    return this.derive(workspaceId, `image-url-signing/${generation}`);
  }
}
