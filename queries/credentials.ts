import { timingSafeEqual } from 'node:crypto';
import { parseCredential, secretMatches, sha256Hex } from '../infra/crypto/credentials';
import type { ReadStore } from '../infra/readstore/port';
import { API_KEYS, type ApiKeyDocument } from '../projections/read-models/api-keys';
import { APPS, type AppDocument } from '../projections/read-models/apps';
import { BOOTSTRAP_ID, SERVICE, type BootstrapDocument } from '../projections/read-models/service';
import type { WorkspacePolicy } from '../src/domain/api-key/events';

export type Principal =
  | { readonly kind: 'workspace'; readonly workspaceId: string; readonly keyId: string; readonly policies: readonly WorkspacePolicy[] }
  | { readonly kind: 'app'; readonly appId: string };

/** Resolves credentials against the read models; secrets are compared as hashes in constant time. */
export class CredentialQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly configuredAdminToken: string | undefined,
  ) {}

  async resolveKey(key: string): Promise<Principal | null> {
    const credential = parseCredential(key);
    if (!credential) return null;
    if (credential.prefix === 'cms') {
      const document = await this.store.get<ApiKeyDocument>(API_KEYS, credential.id);
      if (!document || !secretMatches(credential.secret, document.secretHash)) return null;
      return { kind: 'workspace', workspaceId: document.workspaceId, keyId: document.id, policies: document.policies };
    }
    if (credential.prefix !== 'app') return null;
    const app = await this.store.get<AppDocument>(APPS, credential.id);
    if (!app || !secretMatches(credential.secret, app.secretHash)) return null;
    return { kind: 'app', appId: app.id };
  }

  /** ADMIN_TOKEN when configured, else the hash of the token generated at the first start. */
  async isAdminToken(token: string): Promise<boolean> {
    if (this.configuredAdminToken !== undefined) {
      const given = Buffer.from(sha256Hex(token), 'hex');
      return timingSafeEqual(given, Buffer.from(sha256Hex(this.configuredAdminToken), 'hex'));
    }
    const bootstrap = await this.store.get<BootstrapDocument>(SERVICE, BOOTSTRAP_ID);
    return bootstrap?.adminTokenHash ? secretMatches(token, bootstrap.adminTokenHash) : false;
  }
}
