import { Router } from 'express';
import type { ContentCommands } from '../../../commands/content';
import type { ContentQueries } from '../../../queries/content';
import { type ContentSecretQueries, invalidTotp } from '../../../queries/content-secrets';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { parseInput } from '../validate';
import { checkBody, decryptBody, encryptBody } from './content-schemas';

/** Encrypted fields: write, compare without revealing, decrypt behind the workspace's TOTP. */
export function contentEncryptRouter(access: AccessGuard, commands: ContentCommands, queries: ContentQueries, secrets: ContentSecretQueries): Router {
  const router = Router();

  router.put('/contents/:type/encrypt', access('WriteAccess'), async (req, res) => {
    const body = parseInput(encryptBody, req.body);
    await commands.setEncrypted(workspacePrincipal(res).workspaceId, pathParam(req, 'type'), body.id, body.encryptFields, commandContext(req, res, body.clientInfo));
    res.json({ success: true });
  });

  router.post('/contents/:type/encrypt/check', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(checkBody, req.body);
    await queries.assertExists(workspaceId, pathParam(req, 'type'), body.id);
    res.json({ match: await secrets.matches(workspaceId, body.id, body.encryptFields) });
  });

  router.post('/contents/:type/encrypt/decrypt', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(decryptBody, req.body);
    // The code is checked before anything about the item is revealed.
    if (!(await secrets.totpValid(workspaceId, body.totpCode))) throw invalidTotp();
    await queries.assertExists(workspaceId, pathParam(req, 'type'), body.id);
    res.json({ fields: await secrets.decrypt(workspaceId, body.id, body.encryptFieldKeys) });
  });

  return router;
}
