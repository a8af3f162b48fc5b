import pino, { type DestinationStream, type Logger } from 'pino';

/** JSON logs (to stdout unless `destination` is given). Credentials and secrets are redacted wherever a log call would carry them. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.key', '*.secret', '*.adminToken', '*.adminTokens', '*.password'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
