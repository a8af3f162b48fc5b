import { decodeMove, encodeMove, MAX_MOVE_BYTES, moveOf } from '../../projections/read-model-moves';
import type { Change } from '../../infra/readstore/port';

const position = { commit: 18446744073709551615n, prepare: 7n };
const upsert = (collection: string, id: string): Change => ({ kind: 'upsert', collection, document: { id, workspaceId: 'w' } });

describe('moves of the read models, as followers read them', () => {
  it('names every collection written and the documents of collections cached by id only', () => {
    const changes: Change[] = [upsert('content_items', 'w:1'), upsert('api_keys', 'w:k'), { kind: 'delete', collection: 'api_keys', id: 'w:gone' }];
    const move = moveOf(position, changes, (collection) => collection === 'api_keys');
    expect(decodeMove(encodeMove(move))).toEqual({
      position,
      collections: ['content_items', 'api_keys'],
      documents: [
        { collection: 'api_keys', id: 'w:k' },
        { collection: 'api_keys', id: 'w:gone' },
      ],
    });
  });

  it('says "everything" when the documents would not fit one notification, and stays within its size', () => {
    const changes = Array.from({ length: 500 }, (_, index) => upsert('api_keys', `workspace:${'k'.repeat(40)}${index}`));
    const text = encodeMove(moveOf(position, changes, () => true));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_MOVE_BYTES);
    expect(decodeMove(text)).toEqual({ position, collections: [], documents: 'everything' });
  });

  it('reads what is not a move as none (the follower then reloads), whatever the text', () => {
    for (const text of ['', 'null', '{', '{"p":"1/2","c":[],"d":"*","x":1}', '{"p":"1/2/3","c":[],"d":"*"}', JSON.stringify({ p: '1/2', c: ['a'.repeat(201)], d: '*' }), '{"__proto__":{"p":"1/2"}}']) {
      expect(decodeMove(text)).toBeNull();
    }
  });
});
