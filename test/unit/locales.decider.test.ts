import { DomainError } from '../../src/domain/errors';
import { localesDecider } from '../../src/domain/locale/decider';
import type { LocaleEvent } from '../../src/domain/locale/events';
import { givenWhenThen } from './decider-spec';

const ws = 'ws-1';
const decide = givenWhenThen(localesDecider);
const added = (code: string, fallbackCode: string | null = null): LocaleEvent => ({ type: 'LocaleAdded', data: { workspaceId: ws, locale: { code, name: code, fallbackCode } } });
const defaulted = (code: string, previousCode: string | null = null): LocaleEvent => ({ type: 'DefaultLocaleChanged', data: { workspaceId: ws, code, previousCode } });
const save = (code: string, extra: { fallbackCode?: string | null; makeDefault?: boolean; name?: string } = {}) => ({ type: 'SaveLocale' as const, workspaceId: ws, code, ...extra });
const remove = (code: string) => ({ type: 'DeleteLocale' as const, workspaceId: ws, code });

function expectError(run: () => unknown, kind: DomainError['kind'], field?: string) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe(kind);
    if (field) expect((error as DomainError).field).toBe(field);
    return;
  }
  throw new Error('expected a DomainError');
}

describe('locales decider', () => {
  it('makes the first locale the default', () => {
    expect(decide([], save('en'))).toEqual([added('en'), defaulted('en')]);
  });

  it('adds later locales without touching the default', () => {
    expect(decide([added('en'), defaulted('en')], save('fr', { fallbackCode: 'EN' }))).toEqual([added('fr', 'en')]);
  });

  it('moves the default when asked, naming the previous one', () => {
    expect(decide([added('en'), defaulted('en'), added('fr')], save('fr', { makeDefault: true }))).toEqual([defaulted('fr', 'en')]);
  });

  it('appends nothing when a save changes nothing', () => {
    expect(decide([added('en'), defaulted('en')], save('EN', { name: 'en' }))).toEqual([]);
  });

  it('refuses an unknown fallback, a self fallback and a cycle', () => {
    const history = [added('en'), defaulted('en'), added('fr', 'en'), added('es', 'fr')];
    expectError(() => decide(history, save('pt', { fallbackCode: 'xx' })), 'invalid', 'fallbackCode');
    expectError(() => decide(history, save('fr', { fallbackCode: 'fr' })), 'invalid', 'fallbackCode');
    expectError(() => decide(history, save('en', { fallbackCode: 'es' })), 'invalid', 'fallbackCode');
  });

  it('refuses to clear the default flag of the default locale', () => {
    expectError(() => decide([added('en'), defaulted('en')], save('en', { makeDefault: false })), 'invalid', 'default');
  });

  it('deletes a locale, but not the default, a fallback target or an unknown one', () => {
    const history = [added('en'), defaulted('en'), added('fr', 'en'), added('nl')];
    expect(decide(history, remove('NL'))).toEqual([{ type: 'LocaleDeleted', data: { workspaceId: ws, code: 'nl' } }]);
    expectError(() => decide(history, remove('en')), 'invalid');
    expectError(() => decide([...history, defaulted('nl', 'en')], remove('en')), 'invalid');
    expectError(() => decide(history, remove('de')), 'not_found');
  });
});
