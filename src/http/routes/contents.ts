import { Router } from 'express';
import type { ContentCommands } from '../../../commands/content';
import type { SecretReads } from '../../../commands/secret-reads';
import type { ContentQueries } from '../../../queries/content';
import type { ContentHistoryQueries } from '../../../queries/content-history';
import type { ReleasePreview } from '../../../queries/release-preview';
import type { ReleasePreviewReads } from '../../../queries/release-preview-reads';
import type { AccessGuard } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { contentEncryptRouter } from './content-encrypt';
import { contentEraseRoutes } from './content-erase';
import { contentHistoryRoutes } from './content-history';
import { type AsOfServices, contentQueryRoutes } from './content-queries';
import { type ContentFamily, contentItemRoutes } from './content-read';
import { contentWriteRoutes } from './content-write';

export interface ContentServices {
  readonly commands: ContentCommands;
  readonly queries: ContentQueries;
  readonly secretReads: SecretReads;
  readonly history: ContentHistoryQueries;
  readonly asOf: AsOfServices;
  readonly releasePreview: ReleasePreview;
  readonly releasePreviewReads: ReleasePreviewReads;
}

const FAMILIES: readonly ContentFamily[] = [
  { base: '/contents', model: 'v1', stage: 'published' },
  { base: '/preview-contents', model: 'v1', stage: 'draft' },
  { base: '/v2/contents', model: 'v2', stage: 'published' },
  { base: '/v2/preview-contents', model: 'v2', stage: 'draft' },
];

/** Every content endpoint: V1 and V2, drafts and published. */
export function contentsRouter(access: AccessGuard, reads: WorkspaceReads, services: ContentServices): Router {
  // Fixed segments (encrypt, ids, aggregate, history) are registered before the `/:id` routes they would otherwise match,
  // and the as-of item read (history) before the plain one.
  const router = Router();
  router.use(contentEncryptRouter(access, services.commands, services.secretReads));
  for (const family of FAMILIES) {
    contentQueryRoutes(router, access, reads, services.queries, services.asOf, services.releasePreviewReads, family);
    contentHistoryRoutes(router, access, reads, services.queries, services.history, services.commands, family);
    if (family.stage === 'published') contentEraseRoutes(router, access, services.commands, services.queries, family);
    contentWriteRoutes(router, access, services.commands, services.queries, family);
    contentItemRoutes(router, access, services.queries, services.releasePreview, family);
  }
  return router;
}
