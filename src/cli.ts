import { ConfigError } from './config';
import { runCli } from './cli/operator';

runCli(process.argv.slice(2), process.env, { log: (line) => console.log(line), progress: process.stderr }).catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `configuration error: ${error.message}` : error instanceof Error ? error.message : error);
  process.exit(1);
});
