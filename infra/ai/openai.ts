import { z } from 'zod';
import { OutboundError, type OutboundHttp } from '../outbound/http';
import { type AiContextItem, type AiProvider, AiProviderError, type AiQuestion } from './port';

export interface OpenAiSettings {
  /** Up to and without `/chat/completions`, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
}

/** Models can take long to write an answer. */
const TIMEOUT_MS = 60_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Characters of a failed answer's body kept in the run's failure reason. */
const MAX_REASON_BODY = 500;

const completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

const INSTRUCTIONS = [
  "You are the assistant of a content management system. Answer the user's questions from the workspace's published content items below;",
  'they were retrieved for the latest question, best match first. Name the items you use by title and id.',
  'If the items do not hold the answer, say so plainly; never invent facts. Answer in Markdown.',
].join(' ');

/** Any OpenAI-compatible chat completions endpoint (OpenAI, Azure-style gateways, Ollama, vLLM, llama.cpp...). */
export class OpenAiCompatibleProvider implements AiProvider {
  private readonly url: string;

  constructor(
    private readonly http: OutboundHttp,
    private readonly settings: OpenAiSettings,
  ) {
    this.url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async answer(question: AiQuestion): Promise<string> {
    const messages = [
      { role: 'system', content: `${INSTRUCTIONS}\n\n${contextText(question.context)}` },
      ...question.history.flatMap((turn) => [
        { role: 'user', content: turn.prompt },
        { role: 'assistant', content: turn.response },
      ]),
      { role: 'user', content: question.prompt },
    ];
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    let response;
    try {
      response = await this.http.send({
        url: this.url,
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.settings.model, messages }),
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
    } catch (error) {
      if (error instanceof OutboundError) throw new AiProviderError(`AI provider not reached: ${error.message}`);
      throw error;
    }
    if (!response.ok) throw new AiProviderError(`AI provider answered ${response.status}: ${this.redacted(response.body.slice(0, MAX_REASON_BODY))}`);
    const parsed = completion.safeParse(parseJson(response.body));
    if (!parsed.success) throw new AiProviderError('AI provider answered with a malformed body: expected choices[0].message.content');
    return parsed.data.choices[0]!.message.content;
  }

  /** Some providers quote the key they refused; it never reaches a run's failure reason. */
  private redacted(text: string): string {
    return this.settings.apiKey ? text.split(this.settings.apiKey).join('[redacted]') : text;
  }
}

function contextText(items: readonly AiContextItem[]): string {
  if (items.length === 0) return 'No published content item matched the latest question.';
  const entries = items.map((item, index) => `[${index + 1}] Title: ${item.title}\nContent type: ${item.contentType}\nId: ${item.id}\nText: ${item.excerpt}`);
  return `Content items:\n\n${entries.join('\n\n')}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
