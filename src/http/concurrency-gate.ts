import type { Request, RequestHandler, Response } from 'express';
import { ProblemError } from './problem';

/** How a turn ended for a request that asked for one. */
type Turn = 'admitted' | 'queue-full' | 'waited-too-long' | 'left';

interface Waiter {
  readonly settle: (turn: Turn) => void;
}

/**
 * At most `max` holders at once; the rest wait their turn in arrival order, at most `queue`
 * of them and each for at most `maxWaitMs` (no bound when absent). A waiter whose client
 * leaves gives up its place.
 */
class Turnstile {
  private active = 0;
  private readonly waiting = new Set<Waiter>();

  constructor(
    private readonly max: number,
    private readonly queue = Infinity,
    private readonly maxWaitMs?: number,
  ) {}

  get idle(): boolean {
    return this.active === 0 && this.waiting.size === 0;
  }

  /** Settles once: admitted (then call `release` exactly once), refused, or left (the response closed while waiting). */
  enter(res: Response): Promise<Turn> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve('admitted');
    }
    if (this.waiting.size >= this.queue) return Promise.resolve('queue-full');
    return new Promise((resolve) => {
      const timer = this.maxWaitMs === undefined ? undefined : setTimeout(() => settle('waited-too-long'), this.maxWaitMs);
      const onClose = () => settle('left');
      const waiter: Waiter = { settle: (turn) => settle(turn) };
      const settle = (turn: Turn) => {
        if (!this.waiting.delete(waiter)) return;
        clearTimeout(timer);
        res.off('close', onClose);
        resolve(turn);
      };
      this.waiting.add(waiter);
      res.once('close', onClose);
    });
  }

  /** Hands the place to the first waiter, or frees it. */
  release(): void {
    const [next] = this.waiting;
    if (next) next.settle('admitted');
    else this.active--;
  }
}

/**
 * Lets at most `max` requests through at once; the rest wait their turn in arrival order
 * (a waiting request whose client leaves gives up its place). Upload chunks are tens of
 * megabytes once parsed: the gate bounds the memory they take.
 */
export function concurrencyGate(max: number): RequestHandler {
  const turnstile = new Turnstile(max);
  return async (_req, res, next) => {
    let closed = false;
    res.once('close', () => {
      closed = true;
    });
    if ((await turnstile.enter(res)) !== 'admitted') return;
    if (closed) return turnstile.release();
    res.once('close', () => turnstile.release());
    next();
  };
}

export interface KeyedGateLimits {
  /** Requests of one key served at once. */
  readonly max: number;
  /** Requests of one key waiting for a place; more are refused at once. */
  readonly queue: number;
  /** The longest a request waits for a place before it is refused. */
  readonly maxWaitMs: number;
  /** What is limited and by which settings, the start of a refusal's message. */
  readonly subject: string;
}

/** What a refused client is asked to wait before it tries again. */
const REFUSED_RETRY_AFTER_SECONDS = 1;

/**
 * A concurrency gate per key (a workspace), so that one key's requests take at most `max`
 * of the places of a shared resource and the other keys find theirs free. A request beyond
 * `max` waits in its key's queue; a full queue, or a wait longer than `maxWaitMs`, answers 503
 * with Retry-After. `gated` wraps a handler and holds the place until the handler's work has
 * ended, not merely until its client left: a client that disconnects and asks again cannot
 * stack more work than `max` on the resource.
 */
export class KeyedConcurrencyGate {
  private readonly turnstiles = new Map<string, Turnstile>();

  constructor(private readonly limits: KeyedGateLimits) {}

  gated(keyOf: (res: Response) => string, handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
    return async (req, res) => {
      const key = keyOf(res);
      let turnstile = this.turnstiles.get(key);
      if (!turnstile) {
        turnstile = new Turnstile(this.limits.max, this.limits.queue, this.limits.maxWaitMs);
        this.turnstiles.set(key, turnstile);
      }
      const turn = await turnstile.enter(res);
      if (turn !== 'admitted') {
        this.forgetIdle(key, turnstile);
        if (turn === 'left') return;
        res.set('Retry-After', String(REFUSED_RETRY_AFTER_SECONDS));
        const why = turn === 'queue-full' ? `${this.limits.queue} more are waiting` : `none finished within ${this.limits.maxWaitMs} ms`;
        throw new ProblemError(503, `${this.limits.subject}: ${this.limits.max} are running and ${why}; retry after the Retry-After delay, or send fewer at once`);
      }
      try {
        await handler(req, res);
      } finally {
        turnstile.release();
        this.forgetIdle(key, turnstile);
      }
    };
  }

  private forgetIdle(key: string, turnstile: Turnstile): void {
    if (turnstile.idle && this.turnstiles.get(key) === turnstile) this.turnstiles.delete(key);
  }
}
