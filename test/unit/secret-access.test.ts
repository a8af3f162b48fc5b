import { attemptsAllowedAtOnce, blockedForMs, countFailure } from '../../src/domain/secret-access/attempt-limits';
import type { TotpCodeEvent } from '../../src/domain/secret-access/events';
import { totpCodeDecider } from '../../src/domain/secret-access/totp-code';
import { givenWhenThen, kindOf } from './decider-spec';

const decide = givenWhenThen(totpCodeDecider);
const use = { type: 'UseTotpCode', workspaceId: 'ws', secretTag: 'tag', step: 58_000_000 } as const;
const used: TotpCodeEvent = { type: 'TotpCodeUsed', data: { workspaceId: 'ws', secretTag: 'tag', step: 58_000_000 } };

describe('a one-time password', () => {
  it('is used once: the first use is recorded, a second is refused (403)', () => {
    expect(decide([], use)).toEqual([used]);
    expect(kindOf(() => decide([used], use))).toBe('forbidden');
  });
});

describe('wrong-guess limits', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, seconds));
  const failures = (count: number, scope: 'credential' | 'item', time = at(0)) => {
    let counter = null;
    for (let failure = 0; failure < count; failure++) counter = countFailure(counter, scope, time);
    return counter;
  };

  it('leaves an item five free wrong guesses and a credential fifty, then blocks for 1 s, doubling to a 15-minute cap', () => {
    expect(blockedForMs(failures(4, 'item'), at(0))).toBe(0);
    expect(blockedForMs(failures(5, 'item'), at(0))).toBe(1000);
    expect(blockedForMs(failures(7, 'item'), at(0))).toBe(4000);
    expect(blockedForMs(failures(30, 'item'), at(0))).toBe(15 * 60_000);
    expect(blockedForMs(failures(49, 'credential'), at(0))).toBe(0);
    expect(blockedForMs(failures(50, 'credential'), at(0))).toBe(1000);
    expect(blockedForMs(failures(5, 'item'), at(1))).toBe(0);
  });

  it('starts again from zero after an hour without a wrong guess', () => {
    const quietHourLater = new Date(at(0).getTime() + 60 * 60_000);
    expect(countFailure(failures(8, 'item'), 'item', quietHourLater)).toMatchObject({ failures: 1, blockedUntil: null });
  });

  it('admits as many attempts at once as wrong guesses are still free, and at least one', () => {
    expect(attemptsAllowedAtOnce(null, 'item', at(0))).toBe(5);
    expect(attemptsAllowedAtOnce(failures(3, 'item'), 'item', at(0))).toBe(2);
    expect(attemptsAllowedAtOnce(failures(9, 'item'), 'item', at(60))).toBe(1);
  });
});
