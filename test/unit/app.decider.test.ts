import { appDecider } from '../../src/domain/app/decider';
import type { AppEvent, AppRegisteredData } from '../../src/domain/app/events';
import { givenWhenThen, kindOf } from './decider-spec';

const appId = 'app-1';
const decide = givenWhenThen(appDecider);
const registration: AppRegisteredData = { appId, name: 'App', parameters: {}, fieldMapping: {}, secretHash: 'hash' };
const registered: AppEvent = { type: 'AppRegistered', data: registration };
const installation = (userId: string, parameters: Record<string, string> = {}) => ({ appId, workspaceId: 'ws-1', userId, parameters, fieldMapping: {} });
const installed = (userId: string, parameters: Record<string, string> = {}): AppEvent => ({ type: 'AppInstalled', data: installation(userId, parameters) });
const install = (userId: string, parameters: Record<string, string> = {}) => ({ type: 'InstallApp' as const, data: installation(userId, parameters) });

describe('app decider', () => {
  it('registers an app once', () => {
    expect(decide([], { type: 'RegisterApp', data: registration })).toEqual([registered]);
    expect(kindOf(() => decide([registered], { type: 'RegisterApp', data: registration }))).toBe('conflict');
  });

  it('installs for a second user of the same workspace and again for the same user, each time with the given settings', () => {
    expect(decide([registered, installed('user-1')], install('user-2', { a: 'b' }))).toEqual([installed('user-2', { a: 'b' })]);
    expect(decide([registered, installed('user-1'), installed('user-2')], install('user-1', { c: 'd' }))).toEqual([installed('user-1', { c: 'd' })]);
  });

  it('merges parameters of a registered app', () => {
    expect(decide([registered], { type: 'MergeAppParameters', data: { appId, parameters: { a: 'b' } } })).toEqual([
      { type: 'AppParametersMerged', data: { appId, parameters: { a: 'b' } } },
    ]);
  });

  it('refuses to install or merge for an unknown app', () => {
    expect(kindOf(() => decide([], install('user-1')))).toBe('not_found');
    expect(kindOf(() => decide([], { type: 'MergeAppParameters', data: { appId, parameters: {} } }))).toBe('not_found');
  });
});
