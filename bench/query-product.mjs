// The Product type and items of the query benchmarks (bench/queries.mjs), shared with
// bench/seed-log.mjs (SEED_SHAPE=queries) so that a store loaded by `cms import` holds the same items.
import { createHash } from 'node:crypto';

export const COLORS = Array.from({ length: 10 }, (_, index) => `color${index}`);
export const CATEGORIES = Array.from({ length: 100 }, (_, index) => `cat${index}`);

export const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true },
    { key: 'price', type: 'Number' },
    { key: 'color', type: 'Text' },
    { key: 'category', type: 'Text' },
    { key: 'released', type: 'DateTime' },
    { key: 'inStock', type: 'Boolean' },
  ],
};

/** Titles are 8 base-36 characters: a 2-character prefix matches ~1/1300 of the items, a 3-character substring a few dozen. */
const title = (index) => BigInt(`0x${createHash('sha256').update(String(index)).digest('hex').slice(0, 12)}`).toString(36).slice(0, 8);

export const product = (index) => ({
  title: title(index),
  price: (index * 7919) % 1000,
  color: COLORS[index % COLORS.length],
  category: CATEGORIES[(index * 31) % CATEGORIES.length],
  released: new Date(Date.UTC(2020, 0, 1) + (index % 2000) * 86_400_000).toISOString(),
  inStock: index % 3 !== 0,
});
