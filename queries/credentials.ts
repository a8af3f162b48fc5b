import { timingSafeEqual } from 'node:crypto';
import { parseCredential, secretMatches, sha256Hex } from '../infra/crypto/credentials';
import type { ReadStore } from '../infra/readstore/port';
import { API_KEYS, type ApiKeyDocument } from '../projections/read-models/api-keys';
import { APPS, type AppDocument } from '../projections/read-models/apps';
import { BOOTSTRAP_ID, SERVICE, type BootstrapDocument } from '../projections/read-models/service';
import type { WorkspacePolicy } from '../src/domain/api-key/events';
import { DEFAULT_ADMIN_NAME, type NamedAdminToken } from '../src/config';

export type Principal =
  | { readonly kind: 'workspace'; readonly workspaceId: string; readonly keyId: string; readonly name: string | null; readonly policies: readonly WorkspacePolicy[] }
  | { readonly kind: 'app'; readonly appId: string; readonly name: string };

/** Resolves credentials against the read models; secrets are compared as hashes in constant time. */
export class CredentialQueries {
  constructor(
    private readonly store: ReadStore,
    configuredAdminTokens: readonly NamedAdminToken[],
  ) {
    this.adminTokenHashes = configuredAdminTokens.map(({ name, token }) => ({ name, hash: Buffer.from(sha256Hex(token), 'hex') }));
  }

  private readonly adminTokenHashes: readonly { readonly name: string; readonly hash: Buffer }[];

  async resolveKey(key: string): Promise<Principal | null> {
    const credential = parseCredential(key);
    if (!credential) return null;
    if (credential.prefix === 'cms') {
      const document = await this.store.get<ApiKeyDocument>(API_KEYS, credential.id);
      if (!document || !secretMatches(credential.secret, document.secretHash)) return null;
      return { kind: 'workspace', workspaceId: document.workspaceId, keyId: document.id, name: document.name, policies: document.policies };
    }
    if (credential.prefix !== 'app') return null;
    const app = await this.store.get<AppDocument>(APPS, credential.id);
    if (!app || !secretMatches(credential.secret, app.secretHash)) return null;
    return { kind: 'app', appId: app.id, name: app.name };
  }

  /**
   * The name of the admin whose token this is, or null: the configured tokens (ADMIN_TOKEN,
   * ADMIN_TOKENS) when there are any, else the hash of the token generated at the first start.
   * Every configured token is compared, in constant time, so the time taken tells nothing.
   */
  async adminName(token: string): Promise<string | null> {
    if (this.adminTokenHashes.length > 0) {
      const given = Buffer.from(sha256Hex(token), 'hex');
      let matched: string | null = null;
      for (const { name, hash } of this.adminTokenHashes) if (timingSafeEqual(given, hash) && matched === null) matched = name;
      return matched;
    }
    const bootstrap = await this.store.get<BootstrapDocument>(SERVICE, BOOTSTRAP_ID);
    return bootstrap?.adminTokenHash && secretMatches(token, bootstrap.adminTokenHash) ? DEFAULT_ADMIN_NAME : null;
  }
}
