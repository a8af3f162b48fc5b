import type { Decider } from '../decider';
import { invalid, notFound } from '../errors';
import { localeKey, type LocaleEvent, type LocaleRecord } from './events';

export type LocaleCommand =
  | {
      type: 'SaveLocale';
      workspaceId: string;
      code: string;
      name?: string | null;
      fallbackCode?: string | null;
      makeDefault?: boolean;
    }
  | { type: 'DeleteLocale'; workspaceId: string; code: string };

export interface LocalesState {
  /** By localeKey(code). */
  readonly locales: ReadonlyMap<string, LocaleRecord>;
  readonly defaultKey: string | null;
}

export const localesDecider: Decider<LocaleCommand, LocaleEvent, LocalesState> = {
  initialState: { locales: new Map(), defaultKey: null },

  evolve(state, event) {
    const locales = new Map(state.locales);
    switch (event.type) {
      case 'LocaleAdded':
      case 'LocaleUpdated':
        locales.set(localeKey(event.data.locale.code), event.data.locale);
        return { ...state, locales };
      case 'DefaultLocaleChanged':
        return { ...state, defaultKey: localeKey(event.data.code) };
      case 'LocaleDeleted':
        locales.delete(localeKey(event.data.code));
        return { ...state, locales };
    }
  },

  decide(command, state) {
    return command.type === 'SaveLocale' ? decideSave(command, state) : decideDelete(command, state);
  },
};

function decideSave(command: Extract<LocaleCommand, { type: 'SaveLocale' }>, state: LocalesState): LocaleEvent[] {
  const key = localeKey(command.code);
  const existing = state.locales.get(key);
  const fallbackCode = resolveFallback(command, state);
  const locale: LocaleRecord = {
    code: existing?.code ?? command.code,
    name: command.name ?? existing?.name ?? command.code,
    fallbackCode: fallbackCode === undefined ? (existing?.fallbackCode ?? null) : fallbackCode,
  };
  if (locale.fallbackCode !== null) assertNoCycle(key, locale.fallbackCode, state);

  const isDefault = state.defaultKey === key;
  if (command.makeDefault === false && isDefault) {
    throw invalid('the default locale stays default until another locale is made default', 'default');
  }

  const events: LocaleEvent[] = [];
  const unchanged = existing && existing.name === locale.name && existing.fallbackCode === locale.fallbackCode;
  if (!unchanged) {
    events.push({ type: existing ? 'LocaleUpdated' : 'LocaleAdded', data: { workspaceId: command.workspaceId, locale } });
  }
  const becomesDefault = !isDefault && (command.makeDefault === true || state.defaultKey === null);
  if (becomesDefault) {
    const previous = state.defaultKey === null ? null : (state.locales.get(state.defaultKey)?.code ?? null);
    events.push({ type: 'DefaultLocaleChanged', data: { workspaceId: command.workspaceId, code: locale.code, previousCode: previous } });
  }
  return events;
}

/** undefined: not given (keep the current one); null: remove it; a string: the stored code of an existing locale. */
function resolveFallback(command: Extract<LocaleCommand, { type: 'SaveLocale' }>, state: LocalesState): string | null | undefined {
  if (command.fallbackCode === undefined) return undefined;
  if (command.fallbackCode === null || command.fallbackCode === '') return null;
  const target = state.locales.get(localeKey(command.fallbackCode));
  if (!target) throw invalid(`fallbackCode names no existing locale: ${command.fallbackCode}`, 'fallbackCode');
  if (localeKey(target.code) === localeKey(command.code)) throw invalid('a locale cannot fall back to itself', 'fallbackCode');
  return target.code;
}

function assertNoCycle(startKey: string, fallbackCode: string, state: LocalesState): void {
  const visited = new Set([startKey]);
  let next: string | null = fallbackCode;
  while (next !== null) {
    const key = localeKey(next);
    if (visited.has(key)) throw invalid(`fallbackCode would form a cycle through ${next}`, 'fallbackCode');
    visited.add(key);
    next = state.locales.get(key)?.fallbackCode ?? null;
  }
}

function decideDelete(command: Extract<LocaleCommand, { type: 'DeleteLocale' }>, state: LocalesState): LocaleEvent[] {
  const key = localeKey(command.code);
  const locale = state.locales.get(key);
  if (!locale) throw notFound(`locale ${command.code} does not exist`);
  if (state.defaultKey === key) throw invalid(`locale ${locale.code} is the default locale and cannot be deleted`, 'code');
  const dependants = [...state.locales.values()].filter((other) => other.fallbackCode !== null && localeKey(other.fallbackCode) === key);
  if (dependants.length > 0) {
    throw invalid(`locale ${locale.code} is the fallback of ${dependants.map((other) => other.code).join(', ')}`, 'code');
  }
  return [{ type: 'LocaleDeleted', data: { workspaceId: command.workspaceId, code: locale.code } }];
}
