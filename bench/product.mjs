// The Product type and items that bench/content.mjs and bench/writes.mjs seed and update.

const CATEGORIES = Array.from({ length: 10 }, (_, index) => `cat${index}`);

export const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true },
    { key: 'price', type: 'Number' },
    { key: 'category', type: 'Text' },
    { key: 'released', type: 'DateTime' },
    { key: 'rating', type: 'Number' },
  ],
};

/** The fields of the index-th item: deterministic, spread over 10 categories and 1,000 prices. */
export const product = (index) => ({
  title: `Product ${index}`,
  price: (index * 7919) % 1000,
  category: CATEGORIES[index % CATEGORIES.length],
  released: new Date(Date.UTC(2020, 0, 1) + (index % 2000) * 86_400_000).toISOString(),
  rating: index % 5,
});
