import type { Request, RequestHandler, Response } from 'express';
import type { CommandContext } from '../../commands/aggregate';
import type { CredentialQueries, Principal } from '../../queries/credentials';
import { DEFAULT_ADMIN_NAME } from '../config';
import { forbidden, unauthorized } from './problem';
import { requestIds } from './request-id';

export type WorkspacePrincipal = Extract<Principal, { kind: 'workspace' }>;
export type AppPrincipal = Extract<Principal, { kind: 'app' }>;

/** The policies of the spec; App.* belong to app keys. */
export type Policy = 'ReadAccess' | 'WriteAccess' | 'AuditAccess' | 'App.ReadAccess' | 'App.UserAccess';

/** `X-Api-Key: <key>` or `Authorization: Bearer <key>`; every endpoint accepts both. */
export function presentedCredential(req: Request): string | null {
  const apiKey = req.get('x-api-key');
  if (apiKey) return apiKey.trim();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return match ? match[1]! : null;
}

export type AccessGuard = (policy: Policy, options?: { appMayWrite?: boolean }) => RequestHandler;

/**
 * The guard every protected route starts with: 401 without a valid credential, 403 for a
 * valid credential without the policy. Workspace keys hold ReadAccess and/or WriteAccess;
 * an app key holds App.ReadAccess and App.UserAccess, and WriteAccess only where
 * `appMayWrite` (POST /apps).
 */
export function accessGuard(credentials: CredentialQueries): AccessGuard {
  return (policy, options = {}) =>
    async (req, res, next) => {
      const key = presentedCredential(req);
      const principal = key ? await credentials.resolveKey(key) : null;
      if (!principal) throw unauthorized();
      const allowed =
        principal.kind === 'workspace'
          ? (policy === 'ReadAccess' || policy === 'WriteAccess' || policy === 'AuditAccess') && principal.policies.includes(policy)
          : policy === 'App.ReadAccess' || policy === 'App.UserAccess' || (policy === 'WriteAccess' && options.appMayWrite === true);
      if (!allowed) throw forbidden(`this credential does not hold ${policy}`);
      res.locals.principal = principal;
      next();
    };
}

export function workspacePrincipal(res: Response): WorkspacePrincipal {
  const principal = res.locals.principal as Principal;
  if (principal.kind !== 'workspace') throw forbidden('this endpoint needs a workspace key');
  return principal;
}

export function appPrincipal(res: Response): AppPrincipal {
  const principal = res.locals.principal as Principal;
  if (principal.kind !== 'app') throw forbidden('this endpoint needs an app key');
  return principal;
}

/**
 * Metadata for the events a request causes: the actor is the key id, never the key, spelled
 * out with its kind and its name at the time; the request id correlates them. The client reads
 * next: its writes are answered only once readable (CommandContext.readYourWrites).
 */
export function commandContext(req: Request, res: Response, clientInfo?: string | null): CommandContext {
  return {
    workspaceId: workspaceOfRequest(res),
    ...requestActor(res),
    ...(clientInfo ? { clientInfo } : {}),
    ...requestIds(res),
    readYourWrites: true,
  };
}

/** The workspace of the key that sent the request; null for admin and app requests. */
function workspaceOfRequest(res: Response): string | null {
  const principal = res.locals.principal as Principal | undefined;
  return principal?.kind === 'workspace' ? principal.workspaceId : null;
}

type RequestActor = Required<Pick<CommandContext, 'actor' | 'actorKind' | 'actorId' | 'actorName'>>;

/** Who sent the request: a workspace key, an app key, or (behind adminOnly) a named admin token. */
function requestActor(res: Response): RequestActor {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind === 'workspace') return { actor: `key:${principal.keyId}`, actorKind: 'apiKey', actorId: principal.keyId, actorName: principal.name };
  if (principal?.kind === 'app') return { actor: `app:${principal.appId}`, actorKind: 'app', actorId: principal.appId, actorName: principal.name };
  const admin = (res.locals.adminName as string | undefined) ?? DEFAULT_ADMIN_NAME;
  return { actor: 'admin', actorKind: 'admin', actorId: admin, actorName: admin };
}

/** Admits a configured (or the generated) admin token and remembers whose it is. */
export function adminOnly(credentials: CredentialQueries): RequestHandler {
  return async (req, res, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    const name = match ? await credentials.adminName(match[1]!) : null;
    if (name === null) throw unauthorized('missing or invalid admin token');
    res.locals.adminName = name;
    next();
  };
}
