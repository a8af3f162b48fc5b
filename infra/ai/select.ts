import type { OutboundHttp } from '../outbound/http';
import { BuiltinAiProvider } from './builtin';
import { OpenAiCompatibleProvider } from './openai';
import type { AiProvider } from './port';

export interface AiSettings {
  readonly provider: 'builtin' | 'openai';
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly model?: string;
}

/** The provider AI_PROVIDER names; the configuration has already checked that openai has its URL and model. */
export function aiProviderFor(settings: AiSettings, http: OutboundHttp): AiProvider {
  if (settings.provider === 'builtin') return new BuiltinAiProvider();
  return new OpenAiCompatibleProvider(http, { baseUrl: settings.baseUrl!, model: settings.model!, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
}
