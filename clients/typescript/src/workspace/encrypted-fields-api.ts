import type { CheckEncryptedFieldsRequest, DecryptedFields, DecryptFieldsRequest, EncryptedFieldsMatch, EncryptFieldsRequest, Success } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.encryptedFields;

/** Values of a content type's Encrypted fields; `type` is the content type key. */
export class EncryptedFieldsApi {
  constructor(private readonly transport: Transport) {}

  set(type: string, request: EncryptFieldsRequest): Promise<Success> {
    return this.transport.json(routes.set, { path: { type }, body: request });
  }

  /** Whether every given plaintext matches the stored value, without revealing them. */
  check(type: string, request: CheckEncryptedFieldsRequest): Promise<EncryptedFieldsMatch> {
    return this.transport.json(routes.check, { path: { type }, body: request });
  }

  /** Needs the workspace's current one-time password (`totpCode`); a wrong one is a 403. */
  decrypt(type: string, request: DecryptFieldsRequest): Promise<DecryptedFields> {
    return this.transport.json(routes.decrypt, { path: { type }, body: request });
  }
}
