import { escapeMarkdown } from './markdown';
import type { AiProvider, AiQuestion } from './port';

/**
 * Answers from the workspace's own content and nothing else: no model, no outbound call. The
 * answer lists the retrieved items, best first, each with a passage around the matched words.
 */
export class BuiltinAiProvider implements AiProvider {
  async answer(question: AiQuestion): Promise<string> {
    const asked = escapeMarkdown(question.prompt.replace(/\s+/g, ' ').trim());
    if (question.context.length === 0) {
      return `I found nothing in the published content that matches “${asked}”. Try other words, or check that the content you mean is published.`;
    }
    const matches = question.context.map(
      (item, index) => `${index + 1}. **${escapeMarkdown(item.title)}** (${escapeMarkdown(item.contentType)}, id \`${item.id}\`)\n   > ${escapeMarkdown(item.snippet)}`,
    );
    const heading = question.context.length === 1 ? 'This published item matches' : 'These published items match';
    return `${heading} “${asked}”, best first:\n\n${matches.join('\n')}\n`;
  }
}
