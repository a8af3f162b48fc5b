import type { IncomingMessage } from 'node:http';

const RAW_BODY = Symbol('rawBody');

type WithRawBody = IncomingMessage & { [RAW_BODY]?: string };

/** `verify` of express.json: keeps the body's text as the client sent it, beside the parsed body. */
export function keepRawBody(req: IncomingMessage, _res: unknown, buffer: Buffer, encoding: string): void {
  if (Buffer.isEncoding(encoding)) (req as WithRawBody)[RAW_BODY] = buffer.toString(encoding);
}

/** The JSON body's text as sent; undefined when it was not kept (no JSON body, or a charset Node cannot decode). */
export function rawBodyText(req: IncomingMessage): string | undefined {
  return (req as WithRawBody)[RAW_BODY];
}
