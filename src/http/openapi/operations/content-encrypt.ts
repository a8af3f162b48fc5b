import { z } from 'zod';
import { checkBody, decryptBody, encryptBody } from '../../routes/content-schemas';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { successSchema } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.encryptedFields.name;
const typeParameter = { type: 'the content type key (contentTypeKey in the spec)' };
const ITEM_ID = '7d0f6a52-3c1e-4b8a-9f4e-2b6c1d9e8a10';
const LIMITS =
  'Wrong guesses are limited per key and per item: 50 free for a key, 5 for an item, then each waits a delay that doubles from 1 s to 15 minutes (429 with Retry-After); a success clears them. Every attempt is recorded as an event (who, which item and fields, outcome; never a value).';
const THROTTLED = { 429: 'too many wrong guesses by this key or at this item: retry after the Retry-After delay' };

export const contentEncryptOperations: DocumentedOperation[] = [
  {
    method: 'put',
    path: '/contents/{type}/encrypt',
    operationId: 'setEncryptedFields',
    tag: TAG,
    summary: "Store values of the item's Encrypted fields, encrypted",
    access: 'WriteAccess',
    parameters: typeParameter,
    body: { schema: named('EncryptFieldsRequest', encryptBody), example: { id: ITEM_ID, encryptFields: { iban: 'CH93 0076 2011 6238 5295 7' }, clientInfo: 'crm sync' } },
    responses: { 200: { description: 'stored', schema: successSchema } },
    errors: { 400: 'invalid body, or a key that names no Encrypted field', 404: 'the content type or the item does not exist', 410: 'the item was erased, or the workspace data key was shredded' },
  },
  {
    method: 'post',
    path: '/contents/{type}/encrypt/check',
    operationId: 'checkEncryptedFields',
    tag: TAG,
    summary: 'Compare plaintexts with the stored values without revealing them',
    description: LIMITS,
    access: 'ReadAccess',
    parameters: typeParameter,
    body: { schema: named('CheckEncryptedFieldsRequest', checkBody), example: { id: ITEM_ID, encryptFields: { iban: 'CH93 0076 2011 6238 5295 7' } } },
    responses: { 200: { description: 'whether every given value matches', schema: named('EncryptedFieldsMatch', z.object({ match: z.boolean() })) } },
    errors: { 404: 'the content type or the item does not exist', ...THROTTLED },
  },
  {
    method: 'post',
    path: '/contents/{type}/encrypt/decrypt',
    operationId: 'decryptFields',
    tag: TAG,
    summary: "Decrypt fields, behind the workspace's one-time password",
    description: `totpCode: RFC 6238 (SHA-1, 6 digits, 30-second step, one step of skew), accepted once per workspace: the same code again is a 403. ${LIMITS}`,
    access: 'ReadAccess',
    parameters: typeParameter,
    body: { schema: named('DecryptFieldsRequest', decryptBody), example: { id: ITEM_ID, encryptFieldKeys: ['iban'], totpCode: '492039' } },
    responses: {
      200: { description: 'field key to plaintext', schema: named('DecryptedFields', z.object({ fields: z.record(z.string(), z.string().nullable()).describe('null for a field with no stored value') })) },
    },
    errors: { 403: 'the one-time password is wrong or already used, or the key lacks ReadAccess', 404: 'the content type or the item does not exist', ...THROTTLED },
  },
];
