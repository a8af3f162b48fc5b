import { apiKeyDecider } from '../../src/domain/api-key/decider';
import type { ApiKeyEvent } from '../../src/domain/api-key/events';
import { givenWhenThen } from './decider-spec';

const decide = givenWhenThen(apiKeyDecider);
const issued: ApiKeyEvent = { type: 'ApiKeyIssued', data: { keyId: 'k1', workspaceId: 'ws', name: null, policies: ['ReadAccess'], secretHash: 'ab' } };

describe('api key decider', () => {
  it('revokes an active key once; a second revoke appends nothing', () => {
    const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { keyId: 'k1', workspaceId: 'ws' } };
    expect(decide([issued], { type: 'RevokeApiKey', data: { keyId: 'k1', workspaceId: 'ws' } })).toEqual([revoked]);
    expect(decide([issued, revoked], { type: 'RevokeApiKey', data: { keyId: 'k1', workspaceId: 'ws' } })).toEqual([]);
  });

  it('reports a key of another workspace as not found', () => {
    expect(() => decide([issued], { type: 'RevokeApiKey', data: { keyId: 'k1', workspaceId: 'other' } })).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });
});
