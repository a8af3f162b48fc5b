import { MongoServerError } from 'mongodb';
import { readError, timedRead } from '../../infra/readstore/mongodb-read-timeout';
import { ReadTimeoutError } from '../../infra/readstore/port';

describe('MongoDB reads past their maxTimeMS', () => {
  const expired = new MongoServerError({ ok: 0, code: 50, codeName: 'MaxTimeMSExpired', errmsg: 'operation exceeded time limit' });

  it('become ReadTimeoutError (answered 503), keeping the server error as the cause', async () => {
    const error = readError(expired);
    expect(error).toBeInstanceOf(ReadTimeoutError);
    expect((error as Error).cause).toBe(expired);
    await expect(timedRead(() => Promise.reject(expired))).rejects.toBeInstanceOf(ReadTimeoutError);
  });

  it('leave every other error as it is, and a read that succeeds untouched', async () => {
    const other = new MongoServerError({ ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'duplicate key' });
    expect(readError(other)).toBe(other);
    await expect(timedRead(() => Promise.reject(other))).rejects.toBe(other);
    await expect(timedRead(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
