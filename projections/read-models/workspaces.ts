import { workspaceEvent } from '../../src/domain/workspace/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const WORKSPACES = 'workspaces';

/** Which image signing key is current, and until when the one before is accepted. */
export interface ImageSigningState {
  readonly generation: number;
  readonly previousKeyValidUntil: string;
}

export interface WorkspaceDocument extends Document {
  readonly name: string;
  readonly ownerUserId: string | null;
  readonly planType: string | null;
  readonly planRecords: number | null;
  readonly activationDate: string;
  readonly expirationDate: string | null;
  /** Ciphertext under the workspace's data key; null when not set. */
  readonly encryptedTotpSecret: string | null;
  readonly encryptedSchedulerSigningSecret: string | null;
  /** Absent until the image signing key is first rotated (documents written before it existed have none either). */
  readonly imageSigning?: ImageSigningState;
}

export const workspacesProjector: Projector = {
  name: 'workspaces',
  collections: [{ name: WORKSPACES, indexes: [{ fields: ['activationDate'] }] }],
  eventTypes: new Set(['WorkspaceCreated', 'TotpSecretSet', 'SchedulerSigningSecretSet', 'ImageSigningKeyRotated']),

  async project(recorded, view) {
    const event = workspaceEvent.parse(recorded);
    if (event.type === 'WorkspaceCreated') {
      const { workspaceId, ...info } = event.data;
      const document: WorkspaceDocument = { id: workspaceId, ...info, encryptedTotpSecret: null, encryptedSchedulerSigningSecret: null };
      return [{ kind: 'upsert', collection: WORKSPACES, document }];
    }
    const current = await view.get<WorkspaceDocument>(WORKSPACES, event.data.workspaceId);
    if (!current) return [];
    let document: WorkspaceDocument;
    switch (event.type) {
      case 'TotpSecretSet':
        document = { ...current, encryptedTotpSecret: event.data.encryptedSecret };
        break;
      case 'SchedulerSigningSecretSet':
        document = { ...current, encryptedSchedulerSigningSecret: event.data.encryptedSecret };
        break;
      case 'ImageSigningKeyRotated':
        document = { ...current, imageSigning: { generation: event.data.generation, previousKeyValidUntil: event.data.previousKeyValidUntil } };
        break;
    }
    return [{ kind: 'upsert', collection: WORKSPACES, document }];
  },
};
