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

  it('reads CORS_ORIGINS as the origins a browser sends, none by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' https://App.example.com:443/, http://localhost:5173 ,' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
  });

  it('reads READ_REPLICA_URLS as postgres URLs of replicas of DATABASE_URL, none by default', () => {
    expect(loadConfig({}).readReplicas).toEqual({ urls: [], maxLagMs: 5000 });
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', READ_REPLICA_URLS: ' postgres://r1:5433/y, postgresql://r2/y ,', READ_REPLICA_MAX_LAG_MS: '2000' }).readReplicas).toEqual({
      urls: ['postgres://r1:5433/y', 'postgresql://r2/y'],
      maxLagMs: 2000,
    });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', READ_REPLICA_URLS: 'http://r1/y' })).toThrow(/READ_REPLICA_URLS: must be postgres:\/\/ URLs/);
    expect(() => loadConfig({ READ_REPLICA_URLS: 'postgres://r1/y' })).toThrow(/READ_REPLICA_URLS: needs READ_STORE=postgres/);
  });

  it('sends MongoDB read-store queries to the primary unless MONGODB_READ_PREFERENCE says otherwise, out of rotation past READ_REPLICA_MAX_LAG_MS', () => {
    const mongo = { READ_STORE: 'mongodb', MONGODB_URL: 'mongodb://a,b,c/cms?replicaSet=rs0' };
    expect(loadConfig(mongo).mongoReads).toEqual({ preference: 'primary', maxLagMs: 5000 });
    expect(loadConfig({ ...mongo, MONGODB_READ_PREFERENCE: 'secondaryPreferred', READ_REPLICA_MAX_LAG_MS: '2000' }).mongoReads).toEqual({ preference: 'secondaryPreferred', maxLagMs: 2000 });
    expect(loadConfig({ ...mongo, MONGODB_READ_PREFERENCE: 'nearest' }).mongoReads.preference).toBe('nearest');
    expect(() => loadConfig({ ...mongo, MONGODB_READ_PREFERENCE: 'secondary' })).toThrow(/MONGODB_READ_PREFERENCE: /);
    expect(() => loadConfig({ MONGODB_READ_PREFERENCE: 'nearest' })).toThrow(/MONGODB_READ_PREFERENCE: needs READ_STORE=mongodb/);
  });

  it('refuses a readPreference in MONGODB_URL, which would send the write path\'s reads to secondaries too', () => {
    expect(() => loadConfig({ READ_STORE: 'mongodb', MONGODB_URL: 'mongodb://a,b/cms?replicaSet=rs0&ReadPreference=secondary' })).toThrow(
      /MONGODB_URL: must not set readPreference: set MONGODB_READ_PREFERENCE instead/,
    );
    expect(loadConfig({ READ_STORE: 'mongodb', MONGODB_URL: 'mongodb://a,b/cms?replicaSet=rs0&readConcernLevel=majority' }).mongoUrl).toContain('readConcernLevel');
  });

  it('reads TRUST_PROXY as a number of proxies or addresses, ranges and range names, none by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8']);
  });

  it('reads EXPORT_SIGNING_KEY as the bytes of its base64', () => {
    const key = Buffer.alloc(48, 7);
    expect(loadConfig({ EXPORT_SIGNING_KEY: key.toString('base64') }).exportSigningKey).toEqual(key);
    expect(loadConfig({}).exportSigningKey).toBeUndefined();
  });

  it('signs the event log every 10 s unless CHAIN_CHECKPOINT_INTERVAL_MS says otherwise, between 1 s and an hour', () => {
    expect(loadConfig({}).chainCheckpointIntervalMs).toBe(10_000);
    expect(loadConfig({ CHAIN_CHECKPOINT_INTERVAL_MS: '2000' }).chainCheckpointIntervalMs).toBe(2000);
    expect(() => loadConfig({ CHAIN_CHECKPOINT_INTERVAL_MS: '999' })).toThrow(/CHAIN_CHECKPOINT_INTERVAL_MS: must be at least 1000/);
    expect(() => loadConfig({ CHAIN_CHECKPOINT_INTERVAL_MS: '3600001' })).toThrow(/CHAIN_CHECKPOINT_INTERVAL_MS: must be at most 3600000/);
    expect(() => loadConfig({ CHAIN_CHECKPOINT_INTERVAL_MS: 'often' })).toThrow(/CHAIN_CHECKPOINT_INTERVAL_MS: must be a number/);
  });

  it('publishes checkpoints to CHECKPOINT_WITNESS_DIR and an https CHECKPOINT_WITNESS_URL, which needs CHECKPOINT_WITNESS_SECRET', () => {
    expect(loadConfig({}).checkpointWitness).toEqual({ dir: undefined, url: undefined, secret: undefined });
    const secret = 's'.repeat(32);
    expect(loadConfig({ CHECKPOINT_WITNESS_DIR: '/witness', CHECKPOINT_WITNESS_URL: 'https://witness.example.com/cms', CHECKPOINT_WITNESS_SECRET: secret }).checkpointWitness).toEqual({
      dir: '/witness',
      url: 'https://witness.example.com/cms',
      secret,
    });
    expect(() => loadConfig({ CHECKPOINT_WITNESS_URL: 'https://witness.example.com' })).toThrow('CHECKPOINT_WITNESS_SECRET: required with CHECKPOINT_WITNESS_URL');
    expect(() => loadConfig({ CHECKPOINT_WITNESS_URL: 'http://witness.example.com', CHECKPOINT_WITNESS_SECRET: secret })).toThrow(/CHECKPOINT_WITNESS_URL: must be an absolute https URL/);
    expect(() => loadConfig({ CHECKPOINT_WITNESS_URL: `https://w.example.com/${'a'.repeat(2000)}`, CHECKPOINT_WITNESS_SECRET: secret })).toThrow(/CHECKPOINT_WITNESS_URL: must be at most 2000/);
    expect(() => loadConfig({ CHECKPOINT_WITNESS_URL: 'https://witness.example.com', CHECKPOINT_WITNESS_SECRET: 'short' })).toThrow(/CHECKPOINT_WITNESS_SECRET: must be at least 32 characters/);
  });

  it('checkpoints the embedded engine every 64 MB of WAL unless EMBEDDED_CHECKPOINT_WAL_MB says otherwise', () => {
    expect(loadConfig({}).embeddedCheckpointWalMb).toBe(64);
    expect(loadConfig({ EMBEDDED_CHECKPOINT_WAL_MB: '256' }).embeddedCheckpointWalMb).toBe(256);
  });

  it('cancels reads after 5 s unless READ_STATEMENT_TIMEOUT_MS says otherwise (0: never)', () => {
    expect(loadConfig({}).readStatementTimeoutMs).toBe(5000);
    expect(loadConfig({ READ_STATEMENT_TIMEOUT_MS: '250' }).readStatementTimeoutMs).toBe(250);
    expect(loadConfig({ READ_STATEMENT_TIMEOUT_MS: '0' }).readStatementTimeoutMs).toBe(0);
  });

  it('stops a rendition after 30 s unless IMAGE_RENDER_TIMEOUT_MS says otherwise, at least 100 ms', () => {
    expect(loadConfig({}).imageRenderTimeoutMs).toBe(30_000);
    expect(loadConfig({ IMAGE_RENDER_TIMEOUT_MS: '1500' }).imageRenderTimeoutMs).toBe(1500);
    expect(() => loadConfig({ IMAGE_RENDER_TIMEOUT_MS: '10' })).toThrow('IMAGE_RENDER_TIMEOUT_MS: must be at least 100');
  });

  it('allows 100 content types and 50 webhooks per workspace unless CONTENT_TYPES_PER_WORKSPACE and WEBHOOKS_PER_WORKSPACE say otherwise (0: no limit)', () => {
    expect(loadConfig({}).workspaceQuotas).toEqual({ contentTypes: 100, webhooks: 50 });
    expect(loadConfig({ CONTENT_TYPES_PER_WORKSPACE: '0', WEBHOOKS_PER_WORKSPACE: '7' }).workspaceQuotas).toEqual({ contentTypes: 0, webhooks: 7 });
    expect(() => loadConfig({ WEBHOOKS_PER_WORKSPACE: '-1' })).toThrow('WEBHOOKS_PER_WORKSPACE: must be 0 (no limit) or more');
    expect(() => loadConfig({ CONTENT_TYPES_PER_WORKSPACE: 'many' })).toThrow('CONTENT_TYPES_PER_WORKSPACE: must be a number');
  });

  it('runs the query index advisor with its defaults unless QUERY_ADVISOR_* say otherwise, its budget at most 8', () => {
    expect(loadConfig({}).queryAdvisor).toEqual({ enabled: true, minCount: 100, minMeanMs: 10, windowMs: 600_000, intervalMs: 30_000, budget: 6, dropUnusedAfterMs: 604_800_000 });
    expect(
      loadConfig({
        QUERY_ADVISOR: 'false',
        QUERY_ADVISOR_MIN_COUNT: '5',
        QUERY_ADVISOR_MIN_MEAN_MS: '0.5',
        QUERY_ADVISOR_WINDOW_MS: '60000',
        QUERY_ADVISOR_INTERVAL_MS: '250',
        QUERY_ADVISOR_BUDGET: '0',
        QUERY_ADVISOR_DROP_UNUSED_MS: '3600000',
      }).queryAdvisor,
    ).toEqual({ enabled: false, minCount: 5, minMeanMs: 0.5, windowMs: 60_000, intervalMs: 250, budget: 0, dropUnusedAfterMs: 3_600_000 });
    expect(() => loadConfig({ QUERY_ADVISOR_BUDGET: '9' })).toThrow(/QUERY_ADVISOR_BUDGET: must be at most 8/);
    expect(() => loadConfig({ QUERY_ADVISOR_MIN_COUNT: '0' })).toThrow('QUERY_ADVISOR_MIN_COUNT: must be positive');
    expect(() => loadConfig({ QUERY_ADVISOR_DROP_UNUSED_MS: '10' })).toThrow('QUERY_ADVISOR_DROP_UNUSED_MS: must be at least 1000');
    expect(() => loadConfig({ QUERY_ADVISOR: 'maybe' })).toThrow('QUERY_ADVISOR: must be true or false');
  });

  it('caches reads unless READ_CACHE is false', () => {
    expect(loadConfig({}).readCache).toBe(true);
    expect(loadConfig({ READ_CACHE: 'false' }).readCache).toBe(false);
    expect(loadConfig({ READ_CACHE: '1' }).readCache).toBe(true);
  });

  it('caches query results unless QUERY_CACHE is false', () => {
    expect(loadConfig({}).queryCache).toBe(true);
    expect(loadConfig({ QUERY_CACHE: 'false' }).queryCache).toBe(false);
  });

  it('reads ADMIN_TOKENS as name=token pairs beside ADMIN_TOKEN, which is named admin', () => {
    expect(loadConfig({}).adminTokens).toEqual([]);
    expect(loadConfig({ ADMIN_TOKEN: 'single-token-0123456789', ADMIN_TOKENS: ' alice=alice-token-0123456789 , bob.ops=bob-token=with=equals ,' }).adminTokens).toEqual([
      { name: 'admin', token: 'single-token-0123456789' },
      { name: 'alice', token: 'alice-token-0123456789' },
      { name: 'bob.ops', token: 'bob-token=with=equals' },
    ]);
  });

  it.each([
    ['alice-token-0123456789', /pair 1 is not name=token/],
    ['=alice-token-0123456789', /pair 1 is not name=token/],
    ['alice=short', /the token of "alice" must be at least 16 characters/],
    ['alice=alice-token-0123456789,alice=other-token-0123456789', /"alice" is named twice/],
    ['alice=same-token-0123456789,bob=same-token-0123456789', /the token of "bob" is also another admin's token/],
    ['admin=other-token-0123456789', /"admin" and ADMIN_TOKEN's token belong to ADMIN_TOKEN/],
    ['ops=single-token-0123456789', /"admin" and ADMIN_TOKEN's token belong to ADMIN_TOKEN/],
  ])('refuses ADMIN_TOKENS %s without echoing a token', (value, message) => {
    const load = () => loadConfig({ ADMIN_TOKEN: 'single-token-0123456789', ADMIN_TOKENS: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
    expect(load).toThrow(/^ADMIN_TOKENS: /);
    expect(load).not.toThrow(/token-0123456789/);
  });

  it.each([
    [{ READ_CACHE: 'off' }, /^READ_CACHE: must be true or false/],
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ EVENT_STORE: 'oracle' }, /^EVENT_STORE: /],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, /^ENCRYPTION_KEY: must be 32 bytes/],
    [{ EXPORT_SIGNING_KEY: 'c2hvcnQ=' }, /^EXPORT_SIGNING_KEY: must be at least 32 bytes, base64-encoded/],
    [{ EVENT_STORE: 'postgres' }, /^DATABASE_URL: required/],
    [{ ALLOW_PRIVATE_TARGETS: 'yes' }, /^ALLOW_PRIVATE_TARGETS: /],
    [{ ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN: /],
    [{ CORS_ORIGINS: 'https://app.example.com,app.example.com' }, /^CORS_ORIGINS: "app.example.com" is not an origin/],
    [{ CORS_ORIGINS: 'https://app.example.com/login' }, /^CORS_ORIGINS: "https:\/\/app.example.com\/login" is not an origin/],
    [{ CORS_ORIGINS: 'ftp://files.example.com' }, /^CORS_ORIGINS: "ftp:/],
    [{ TRUST_PROXY: 'proxy.internal' }, /^TRUST_PROXY: "proxy.internal" is not a number of proxies/],
    [{ TRUST_PROXY: '10.0.0.0/40' }, /^TRUST_PROXY: "10.0.0.0\/40"/],
    [{ CORS_ORIGINS: '*,https://app.example.com' }, /^CORS_ORIGINS: "\*" \(any origin\) stands alone/],
    [{ EMBEDDED_CHECKPOINT_WAL_MB: '16' }, /^EMBEDDED_CHECKPOINT_WAL_MB: must be at least 32/],
    [{ EMBEDDED_CHECKPOINT_WAL_MB: 'lots' }, /^EMBEDDED_CHECKPOINT_WAL_MB: must be a number/],
    [{ READ_STATEMENT_TIMEOUT_MS: 'soon' }, /^READ_STATEMENT_TIMEOUT_MS: must be a number/],
    [{ READ_STATEMENT_TIMEOUT_MS: '-1' }, /^READ_STATEMENT_TIMEOUT_MS: must be 0/],
    [{ READ_STATEMENT_TIMEOUT_MS: '2.5' }, /^READ_STATEMENT_TIMEOUT_MS: must be a whole number/],
  ])('names the variable and the problem: %j', (environment, message) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(message);
  });
});
