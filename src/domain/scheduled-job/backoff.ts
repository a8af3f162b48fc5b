/** Retry backoff of the spec: 2^(attempts-1) units, capped at 60 units. */
export function retryDelayMs(attempts: number, unitMs: number): number {
  return Math.min(2 ** (attempts - 1), 60) * unitMs;
}
