/** Content text shown inside Markdown: characters that would start formatting are escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (character) => `\\${character}`);
}
