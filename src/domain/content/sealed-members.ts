/**
 * Which members of an event hold an item's values, and what they hold once sealed: the
 * values go, as one JSON object, into `sealed`; the members keep an empty value so that the
 * event keeps its shape for every reader.
 */
const SEALED_MEMBERS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  ContentDraftSaved: { fields: {}, translations: {} },
  ContentPublished: { fields: {}, translations: {} },
  ContentRestored: { fields: {}, translations: {} },
  ContentEncryptedFieldsSet: { ciphertexts: {} },
  WebhookDeliveryQueued: { fields: {}, translations: {}, customPayload: null },
};

export interface SealedSplit {
  /** The values to seal. */
  readonly values: Record<string, unknown>;
  /** The event data without them (the empty stand-ins in their place). */
  readonly rest: Record<string, unknown>;
}

export const holdsItemValues = (eventType: string) => eventType in SEALED_MEMBERS;

/** Splits an event's data into its item values and the rest; null for an event type without values. */
export function splitItemValues(eventType: string, data: Record<string, unknown>): SealedSplit | null {
  const members = SEALED_MEMBERS[eventType];
  if (!members) return null;
  const values: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...data };
  for (const [member, empty] of Object.entries(members)) {
    values[member] = data[member];
    rest[member] = empty;
  }
  return { values, rest };
}

/** The data with its values put back and `sealed` dropped. Only the known members are taken from `values`. */
export function withItemValues(eventType: string, data: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const { sealed: _sealed, ...rest } = data;
  for (const member of Object.keys(SEALED_MEMBERS[eventType] ?? {})) {
    if (member in values) rest[member] = values[member];
  }
  return rest;
}
