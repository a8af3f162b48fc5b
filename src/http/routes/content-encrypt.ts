import { Router } from 'express';
import type { ContentCommands } from '../../../commands/content';
import type { SecretReads } from '../../../commands/secret-reads';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { parseInput, takesNoQuery } from '../validate';
import { checkBody, decryptBody, encryptBody } from './content-schemas';

/** Encrypted fields: write; compare and decrypt (behind the workspace's TOTP), both limited and recorded. */
export function contentEncryptRouter(access: AccessGuard, commands: ContentCommands, reads: SecretReads): Router {
  const router = Router();

  router.put('/contents/:type/encrypt', access('WriteAccess'), takesNoQuery, async (req, res) => {
    const body = parseInput(encryptBody, req.body);
    await commands.setEncrypted(workspacePrincipal(res).workspaceId, pathParam(req, 'type'), body.id, body.encryptFields, commandContext(req, res, body.clientInfo));
    res.json({ success: true });
  });

  router.post('/contents/:type/encrypt/check', access('ReadAccess'), takesNoQuery, async (req, res) => {
    const reader = { ...commandContext(req, res), workspaceId: workspacePrincipal(res).workspaceId };
    const body = parseInput(checkBody, req.body);
    res.json({ match: await reads.check(reader, pathParam(req, 'type'), body.id, body.encryptFields) });
  });

  router.post('/contents/:type/encrypt/decrypt', access('ReadAccess'), takesNoQuery, async (req, res) => {
    const reader = { ...commandContext(req, res), workspaceId: workspacePrincipal(res).workspaceId };
    const body = parseInput(decryptBody, req.body);
    res.json({ fields: await reads.decrypt(reader, pathParam(req, 'type'), body.id, body.encryptFieldKeys, body.totpCode) });
  });

  return router;
}
