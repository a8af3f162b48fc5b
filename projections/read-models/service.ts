import { serviceBootstrapped } from '../../src/domain/service/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const SERVICE = 'service';
export const BOOTSTRAP_ID = 'bootstrap';

export interface BootstrapDocument extends Document {
  readonly adminTokenHash: string | null;
  readonly defaultWorkspaceId: string;
}

export const serviceProjector: Projector = {
  name: 'service',
  collections: [{ name: SERVICE, indexes: [] }],
  eventTypes: new Set(['ServiceBootstrapped']),

  async project(recorded) {
    const { data } = serviceBootstrapped.parse(recorded);
    const document: BootstrapDocument = { id: BOOTSTRAP_ID, ...data };
    return [{ kind: 'upsert', collection: SERVICE, document }];
  },
};
