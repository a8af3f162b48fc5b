/** Polls `probe` until it answers something truthy, and returns that. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
