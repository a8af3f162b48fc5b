import { ItemErasedError, type ItemSealer } from '../infra/crypto/item-sealer';
import type { AiExchange } from '../src/domain/ai-thread/decider';
import type { SealedAnswer } from '../src/domain/ai-thread/events';
import { gone } from '../src/domain/errors';

/** A content item an answer was drawn from. */
export interface DrawnItem {
  readonly id: string;
  readonly contentType: string;
}

/** An answer as the log keeps it: in clear, or sealed with `response` empty. */
export interface StoredAnswer {
  readonly response: string;
  readonly sealed?: SealedAnswer;
}

/**
 * Keeps an assistant's answer that drew on items of personal-data content types sealed under
 * those items' own keys, so that erasing any of them leaves the answer unreadable wherever it
 * is kept (the log, the thread read model, exports, rebuilds), as it does the items' values. An
 * item counts when its type holds personal data, or when it has a key (its values were sealed
 * while its type did).
 */
export class AiAnswerSealing {
  constructor(
    private readonly sealer: ItemSealer,
    private readonly isPersonalType: (workspaceId: string, contentType: string) => Promise<boolean>,
  ) {}

  /** 410 when an item it drew on was erased meanwhile: the answer cannot be kept under that item's key. */
  async seal(workspaceId: string, drawnOn: readonly DrawnItem[], response: string): Promise<StoredAnswer> {
    const personal = await this.personalItems(workspaceId, drawnOn);
    if (personal.length === 0) return { response };
    try {
      return { response: '', sealed: await this.sealer.sealUnderItems(workspaceId, personal, response) };
    } catch (error) {
      if (error instanceof ItemErasedError) throw gone(`content item ${error.itemId}, which the answer drew on, was erased meanwhile`);
      throw error;
    }
  }

  /** The earlier exchanges in clear; one whose answer drew on an item erased since is left out. */
  async openExchanges(workspaceId: string, exchanges: readonly AiExchange[]): Promise<AiExchange[]> {
    const opened = await Promise.all(exchanges.map(async (exchange) => ({ prompt: exchange.prompt, response: await this.open(workspaceId, exchange) })));
    return opened.flatMap((exchange) => (exchange.response === undefined ? [] : [{ prompt: exchange.prompt, response: exchange.response }]));
  }

  /** The answer in clear; undefined once an item it drew on is erased. */
  async open(workspaceId: string, answer: StoredAnswer): Promise<string | undefined> {
    if (!answer.sealed) return answer.response;
    const opened = await this.sealer.openUnderItems(workspaceId, answer.sealed);
    return typeof opened === 'string' ? opened : undefined;
  }

  private async personalItems(workspaceId: string, drawnOn: readonly DrawnItem[]): Promise<string[]> {
    const ids = [...new Set(drawnOn.map((item) => item.id))];
    if (ids.length === 0) return [];
    const types = [...new Set(drawnOn.map((item) => item.contentType))];
    const [keyed, personalTypes] = await Promise.all([
      this.sealer.keyed(workspaceId, ids),
      Promise.all(types.map(async (type) => ((await this.isPersonalType(workspaceId, type)) ? [type] : []))).then((found) => new Set(found.flat())),
    ]);
    return ids.filter((id) => keyed.has(id) || drawnOn.some((item) => item.id === id && personalTypes.has(item.contentType)));
  }
}
