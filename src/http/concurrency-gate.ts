import type { RequestHandler } from 'express';

/**
 * Lets at most `max` requests through at once; the rest wait their turn in arrival order
 * (a waiting request whose client leaves gives up its place). Upload chunks are tens of
 * megabytes once parsed: the gate bounds the memory they take.
 */
export function concurrencyGate(max: number): RequestHandler {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return (_req, res, next) => {
    let admitted = false;
    const admit = () => {
      admitted = true;
      next();
    };
    res.once('close', () => {
      if (admitted) release();
      else waiting.splice(waiting.indexOf(admit), 1);
    });
    if (active < max) {
      active++;
      admit();
    } else {
      waiting.push(admit);
    }
  };
}
