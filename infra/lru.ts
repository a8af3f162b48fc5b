/** A map bounded by total weight; the least recently used entries go first (told to `onEvict`, if given). */
export class Lru<T> {
  private readonly entries = new Map<string, { value: T; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly onEvict?: (value: T) => void,
  ) {}

  get(entryKey: string): { value: T } | undefined {
    const entry = this.entries.get(entryKey);
    if (!entry) return undefined;
    this.entries.delete(entryKey);
    this.entries.set(entryKey, entry);
    return entry;
  }

  set(entryKey: string, value: T, weight: number): void {
    this.delete(entryKey);
    if (weight > this.maxWeight) return;
    this.entries.set(entryKey, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
      this.onEvict?.(entry.value);
    }
  }

  delete(entryKey: string): void {
    const entry = this.entries.get(entryKey);
    if (!entry) return;
    this.entries.delete(entryKey);
    this.total -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
