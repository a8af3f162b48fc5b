import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { bootstrapService, type BootstrapReport } from '../commands/bootstrap';
import { type Clock, systemClock } from '../infra/clock';
import type { Config } from './config';
import { buildContainer, TOKENS } from './container';
import { lockEmbeddedStore } from './data-dir-lock';
import { createApp } from './http/app';

export interface RunningService {
  readonly url: string;
  readonly container: DependencyContainer;
  /** What the first start created; null on later starts. */
  readonly bootstrap: BootstrapReport | null;
  close(): Promise<void>;
}

/** Opens the stores, starts the projections, bootstraps an empty store and listens. */
/** A configured admin token, if any: then none is generated at the first start. */
const firstConfiguredToken = (config: Config) => config.adminTokens[0]?.token;

export async function startService(config: Config, logger: Logger, clock: Clock = systemClock): Promise<RunningService> {
  // Before anything in DATA_DIR is opened or written; held until close() (or the process ends, when a start fails).
  const dataDirLock = await lockEmbeddedStore(config, 'the service, starting');
  const container = await buildContainer(config, logger, clock);
  const projections = container.resolve(TOKENS.projections);
  // The lease holder starts the projections and the process managers; the others follow its read models.
  const processes = container.resolve(TOKENS.processes);
  await processes.start();

  const http = container.resolve(TOKENS.http);
  const bootstrap = await bootstrapService(container.resolve(TOKENS.eventStore), http.workspaceCommands, clock, firstConfiguredToken(config));
  const server = await listen(createApp(http), config.port);
  const { port } = server.address() as AddressInfo;
  await dataDirLock?.describe(`the service on port ${port}`);

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        // A keep-alive connection turns idle once its in-flight request is answered: close those as they appear,
        // rather than waiting out the keep-alive timeout.
        const closingIdle = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(closingIdle);
          resolve();
        });
        server.closeIdleConnections();
      });
      // The holder projects what its process managers appended last before its read models stop (src/container.ts).
      await processes.stop();
      await projections.stop();
      for (const closer of container.resolve(TOKENS.closers)) await closer();
      await dataDirLock?.release();
    })();
    return closing;
  };
  return { url: `http://127.0.0.1:${port}`, container, bootstrap, close };
}

function listen(app: ReturnType<typeof createApp>, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}
