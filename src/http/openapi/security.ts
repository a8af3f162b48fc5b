import type { Access } from './operation';

export const securitySchemes = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'A workspace key (ReadAccess, WriteAccess and/or AuditAccess) or, on /apps, an app key. The key decides the workspace the request sees.',
  },
  BearerKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'The same workspace or app key as `Authorization: Bearer <key>`; every endpoint that takes X-Api-Key also takes this.',
  },
  AdminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'ADMIN_TOKEN, or one of the named tokens of ADMIN_TOKENS, as `Authorization: Bearer <token>`; only the /admin endpoints take it.',
  },
} as const;

/** OpenAPI 3.1 lets non-OAuth requirements list roles: the policy the key must hold. */
export function securityRequirements(access: Access): Record<string, string[]>[] {
  if (access === 'Anonymous') return [];
  if (access === 'Admin') return [{ AdminToken: [] }];
  return [{ ApiKey: [access] }, { BearerKey: [access] }];
}
