/** A published content item retrieved for a question, handed to the provider as context. */
export interface AiContextItem {
  readonly id: string;
  readonly contentType: string;
  readonly title: string;
  /** A short passage around the words that matched the question. */
  readonly snippet: string;
  /** A longer passage of the item's text (all of it when short), for providers that read. */
  readonly excerpt: string;
}

/** An earlier question of the thread and its answer. */
export interface AiTurn {
  readonly prompt: string;
  readonly response: string;
}

export interface AiQuestion {
  readonly prompt: string;
  /** Completed turns before this prompt, oldest first. */
  readonly history: readonly AiTurn[];
  /** Best match first. */
  readonly context: readonly AiContextItem[];
}

/** Answers a question in Markdown. */
export interface AiProvider {
  answer(question: AiQuestion): Promise<string>;
}

/** The provider gave no usable answer; the message is the run's failure reason, shown to clients. */
export class AiProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AiProviderError';
  }
}
