import { ConfigError, loadConfig } from './config';
import { DataDirInUse } from './data-dir-lock';
import { createLogger } from './logger';
import { startService } from './server';

const SHUTDOWN_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let service;
  try {
    service = await startService(config, logger);
  } catch (error) {
    if (error instanceof DataDirInUse) {
      console.error(`cannot start: ${error.message}. The embedded store admits one process: stop that one first, or give this one another DATA_DIR`);
      process.exit(1);
    }
    throw error;
  }

  if (service.bootstrap) {
    // Printed once, on the first start of an empty store, and never logged.
    const { adminToken, workspaceId, readKey, writeKey } = service.bootstrap;
    const lines = [
      'First start: the store was empty and has been set up.',
      ...(adminToken ? [`  admin token:       ${adminToken}`] : ['  admin token:       (ADMIN_TOKEN from the environment)']),
      `  default workspace: ${workspaceId}`,
      `  read key:          ${readKey}`,
      `  write key:         ${writeKey}`,
      'Keep these now: they are stored only as hashes and cannot be shown again.',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  logger.info({ port: config.port, eventStore: config.eventStore, readStore: config.readStore }, `listening on ${config.port}`);

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    forced.unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
