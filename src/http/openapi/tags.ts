/** The groups of the reference, in the order it shows them. */
export const TAGS = {
  contentTypes: { name: 'Content types', description: 'Schemas of content items; content actions are configured on them (docs/actions.md).' },
  content: { name: 'Content', description: 'Items published (/contents, /v2/contents) and drafts (/preview-contents, /v2/preview-contents); V1 typed field arrays, V2 flat dictionaries. Field types, value formats, filters and sorting: docs/field-types.md.' },
  encryptedFields: { name: 'Encrypted fields', description: 'Values of Encrypted fields: stored encrypted, compared without revealing, decrypted behind a one-time password.' },
  locales: { name: 'Locales', description: 'Languages with fallback chains and one default.' },
  assets: { name: 'Assets', description: 'Files uploaded in chunks, duplicate detection, anonymous download with shared access keys (docs/assets.md).' },
  images: { name: 'Images', description: 'Image assets resized and converted on the fly; each rendition is rendered once.' },
  webhooks: { name: 'Webhooks', description: 'Signed deliveries of content events and their log (docs/webhooks.md).' },
  releases: { name: 'Releases', description: 'Many item changes published together as one append, and reverted as one (docs/releases.md).' },
  scheduler: { name: 'Scheduler', description: 'Deferred and recurring HTTP callbacks with retries and dead-lettering (docs/scheduler.md).' },
  contentActions: { name: 'Content actions', description: 'Calls to an external service for a content item, synchronous or with a callback (docs/actions.md).' },
  aiAssistant: { name: 'AI assistant', description: 'Prompts answered in threads: start a run, poll it, read the answer (docs/ai-assistant.md).' },
  apps: { name: 'Apps', description: 'Per-app parameters and field mappings, called with an app key (docs/apps.md).' },
  audit: { name: 'Audit', description: "The workspace's audit feed: every event with who caused it, filtered, paged by log position, or streamed as NDJSON (docs/api.md)." },
  admin: { name: 'Admin', description: 'Workspaces, keys, apps and read-model rebuilds; admin tokens only (ADMIN_TOKEN, ADMIN_TOKENS).' },
  platform: { name: 'Platform', description: 'Health, metrics, server time and this reference.' },
} as const;
