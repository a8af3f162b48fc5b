import { workspaceEvent } from '../../src/domain/workspace/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const WORKSPACES = 'workspaces';

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
}

export const workspacesProjector: Projector = {
  name: 'workspaces',
  collections: [{ name: WORKSPACES, indexes: [{ fields: ['activationDate'] }] }],
  eventTypes: new Set(['WorkspaceCreated', 'TotpSecretSet', 'SchedulerSigningSecretSet']),

  async project(recorded, view) {
    const event = workspaceEvent.parse(recorded);
    if (event.type === 'WorkspaceCreated') {
      const { workspaceId, ...info } = event.data;
      const document: WorkspaceDocument = { id: workspaceId, ...info, encryptedTotpSecret: null, encryptedSchedulerSigningSecret: null };
      return [{ kind: 'upsert', collection: WORKSPACES, document }];
    }
    const current = await view.get<WorkspaceDocument>(WORKSPACES, event.data.workspaceId);
    if (!current) return [];
    const document: WorkspaceDocument =
      event.type === 'TotpSecretSet'
        ? { ...current, encryptedTotpSecret: event.data.encryptedSecret }
        : { ...current, encryptedSchedulerSigningSecret: event.data.encryptedSecret };
    return [{ kind: 'upsert', collection: WORKSPACES, document }];
  },
};
