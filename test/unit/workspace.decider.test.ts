import { workspaceDecider } from '../../src/domain/workspace/decider';
import type { WorkspaceEvent } from '../../src/domain/workspace/events';
import { givenWhenThen, kindOf } from './decider-spec';

const decide = givenWhenThen(workspaceDecider);
const workspaceId = 'ws-1';
const created: WorkspaceEvent = {
  type: 'WorkspaceCreated',
  data: { workspaceId, name: 'Site', ownerUserId: null, planType: null, planRecords: null, activationDate: '2025-01-01T00:00:00.000Z', expirationDate: null },
};
const rotate = (previousKeyValidUntil: string) => ({ type: 'RotateImageSigningKey' as const, data: { workspaceId, previousKeyValidUntil } });

describe('workspace decider: image signing key', () => {
  it('moves to the next generation on each rotation, from 1 before any', () => {
    const first = decide([created], rotate('2025-01-02T00:00:00.000Z'));
    expect(first).toEqual([{ type: 'ImageSigningKeyRotated', data: { workspaceId, generation: 2, previousKeyValidUntil: '2025-01-02T00:00:00.000Z' } }]);
    expect(decide([created, ...first], rotate('2025-01-03T00:00:00.000Z'))).toEqual([
      { type: 'ImageSigningKeyRotated', data: { workspaceId, generation: 3, previousKeyValidUntil: '2025-01-03T00:00:00.000Z' } },
    ]);
  });

  it('rotates nothing of a workspace that does not exist', () => {
    expect(kindOf(() => decide([], rotate('2025-01-02T00:00:00.000Z')))).toBe('not_found');
  });
});
