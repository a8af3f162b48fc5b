import { ReadTimeoutError } from './port';

/** MongoDB's answer to a read that ran past its `maxTimeMS`. */
const MAX_TIME_EXPIRED = 50;

/** The error a read of the request path throws: its own, or ReadTimeoutError when the server stopped it for time. */
export function readError(error: unknown): unknown {
  const { code, codeName } = (error ?? {}) as { code?: unknown; codeName?: unknown };
  if (code === MAX_TIME_EXPIRED || codeName === 'MaxTimeMSExpired') return new ReadTimeoutError('the query ran longer than the read timeout', { cause: error });
  return error;
}

/** Runs a read, turning a server-side timeout into ReadTimeoutError. */
export async function timedRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw readError(error);
  }
}
