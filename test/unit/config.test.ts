import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('defaults to the embedded stores on port 8080', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, dataDir: './data', eventStore: 'embedded', readStore: 'embedded', blobStore: 'fs', publicBaseUrl: 'http://localhost:8080' });
  });

  it('follows DATABASE_URL to postgres and EVENT_STORE=eventstoredb to mongodb', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' })).toMatchObject({ eventStore: 'postgres', readStore: 'postgres' });
    expect(loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: 'esdb://x', MONGODB_URL: 'mongodb://x' })).toMatchObject({ readStore: 'mongodb' });
  });

  it('cancels reads after 5 s unless READ_STATEMENT_TIMEOUT_MS says otherwise (0: never)', () => {
    expect(loadConfig({}).readStatementTimeoutMs).toBe(5000);
    expect(loadConfig({ READ_STATEMENT_TIMEOUT_MS: '250' }).readStatementTimeoutMs).toBe(250);
    expect(loadConfig({ READ_STATEMENT_TIMEOUT_MS: '0' }).readStatementTimeoutMs).toBe(0);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ EVENT_STORE: 'oracle' }, /^EVENT_STORE: /],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, /^ENCRYPTION_KEY: must be 32 bytes/],
    [{ EVENT_STORE: 'postgres' }, /^DATABASE_URL: required/],
    [{ ALLOW_PRIVATE_TARGETS: 'yes' }, /^ALLOW_PRIVATE_TARGETS: /],
    [{ ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN: /],
    [{ READ_STATEMENT_TIMEOUT_MS: 'soon' }, /^READ_STATEMENT_TIMEOUT_MS: must be a number/],
    [{ READ_STATEMENT_TIMEOUT_MS: '-1' }, /^READ_STATEMENT_TIMEOUT_MS: must be 0/],
    [{ READ_STATEMENT_TIMEOUT_MS: '2.5' }, /^READ_STATEMENT_TIMEOUT_MS: must be a whole number/],
  ])('names the variable and the problem: %j', (environment, message) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(message);
  });
});
