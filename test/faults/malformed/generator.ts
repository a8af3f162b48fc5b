import type { RawRequest } from '../../support/raw-http';
import { seededRandom, type SeededRandom } from '../../support/seeded-random';
import { badFilter, badOrder } from './filters';
import { badSegment, traversal } from './paths';
import { type Fixtures, pathParams, type Route, routes, withBody } from './routes';
import { BAD_HEADER_IDS, BAD_HEADER_NAMES, BAD_HEADER_VALUES, BAD_URLS, hostileTemplate, longFilterValue, PROTOTYPE_KEYS } from './hostile';
import { MAX_TEXT_LENGTH } from '../../../src/domain/content/values';
import { badChunk } from './uploads';
import { extraFields, nestedText, notJson, wrongRoot, wrongValue } from './values';

export interface GeneratedRequest extends RawRequest {
  readonly category: string;
  /** The change may have left a request the service accepts: a 2xx is then no finding. */
  readonly mayBeValid: boolean;
  /** The one status this request must get, when there is one. */
  readonly expectStatus?: number;
}

/** Just over express.json's 1 MB limit. */
const OVERSIZE_JSON_BYTES = 1024 * 1024 + 1;
/** Every this many requests, one is an oversize JSON body; two oversize upload chunks in all. */
const OVERSIZE_JSON_EVERY = 400;
const OVERSIZE_UPLOADS_AT = [2500, 7500];
/** Body keys whose value is free-form JSON, so that any value is valid. */
const FREE_FORM_KEYS = new Set(['payload', 'parameters', 'fieldMapping', 'translations', 'headers', 'encryptFields', 'fields']);
const DEEP_PLACEHOLDER = '__deeply_nested__';
/** Values each paging field of a content query must refuse. */
const BAD_PAGING: Record<string, unknown[]> = {
  page: [0, -1, 1.5, 'a', {}, [1], null],
  pageSize: [0, -1, 1.5, 'a', 5001, 1e9, {}],
  locale: [1, {}, [1], 'x'.repeat(60)],
  includeRelations: ['maker', [1], {}, Array.from({ length: 51 }, () => 'maker')],
};
/** Query parameters that take any text: another value is only another search. */
const FREE_TEXT_QUERY = new Set(['contentType', 'userId']);
/** Values among the generated ones that some route takes: a webhook delivery's status is -1 (Error) to 2 (Sent). */
const VALID_QUERY_VALUES: Record<string, readonly string[]> = { status: ['-1', '0'] };

/** null, [] and {} read as "not given" where a field is optional (no filter, no order). */
const readsAsNothing = (value: unknown) =>
  value === null || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

type Make = (random: SeededRandom, context: Context) => Omit<GeneratedRequest, 'category'>;

interface Context {
  readonly fixtures: Fixtures;
  readonly all: readonly Route[];
  readonly params: Record<string, string>;
}

/** `count` malformed requests over the real routes; the same seed gives the same requests. */
export function malformedRequests(fixtures: Fixtures, count: number, seed: number): GeneratedRequest[] {
  const random = seededRandom(seed);
  const context: Context = { fixtures, all: routes(fixtures), params: pathParams(fixtures) };
  const weighted = [...CATEGORIES, ...HOSTILE_CATEGORIES].flatMap(([name, weight, make]) => Array.from({ length: weight }, () => [name, make] as const));
  return Array.from({ length: count }, (_, index) => {
    if (OVERSIZE_UPLOADS_AT.includes(index)) return { category: 'oversize-upload', ...upload(random, context, true), expectStatus: 413 };
    if (index % OVERSIZE_JSON_EVERY === OVERSIZE_JSON_EVERY - 1) return { category: 'oversize-json', ...oversizeJson(random, context) };
    const [category, make] = random.pick(weighted);
    return { category, ...make(random, context) };
  });
}

/** A content type with one action, the carrier of action urls, headers and templates. */
function typeWithAction(action: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'Hostile',
    key: 'Hostile',
    fields: [{ key: 'title', type: 'Text', sortIndex: 0 }],
    actions: [{ id: 'hostile', url: 'https://example.com/action', ...action }],
  };
}

const HOSTILE_CATEGORIES: [string, number, Make][] = [
  ['hostile-header', 4, (random, context) => {
    const name = random.pick(BAD_HEADER_NAMES);
    const value = random.pick(BAD_HEADER_VALUES);
    const headers = random.chance(0.5) ? { [name]: 'v' } : { 'X-Hostile': value };
    const job = context.all.find((route) => route.path === '/scheduled-jobs' && route.method === 'POST')!;
    const type = context.all.find((route) => route.path === '/content-types' && route.method === 'PUT')!;
    return random.pick<() => Omit<GeneratedRequest, 'category'>>([
      () => ({ ...request(random, context, job, { ...job.body, headers }), mayBeValid: false }),
      () => ({ ...request(random, context, job, { ...job.body, [random.pick(['correlationId', 'idempotencyKey'])]: random.pick(BAD_HEADER_IDS) }), mayBeValid: false }),
      () => ({ ...request(random, context, type, typeWithAction({ headers })), mayBeValid: false }),
    ])();
  }],
  ['hostile-url', 4, (random, context) => {
    const url = random.pick(BAD_URLS);
    const job = context.all.find((route) => route.path === '/scheduled-jobs' && route.method === 'POST')!;
    const webhook = context.all.find((route) => route.path === '/webhooks' && route.method === 'PUT')!;
    const type = context.all.find((route) => route.path === '/content-types' && route.method === 'PUT')!;
    return random.pick<() => Omit<GeneratedRequest, 'category'>>([
      () => ({ ...request(random, context, job, { ...job.body, callbackUrl: url }), mayBeValid: false }),
      () => ({ ...request(random, context, webhook, { ...webhook.body, endpoint: url }), mayBeValid: false }),
      () => ({ ...request(random, context, type, typeWithAction({ url })), mayBeValid: false }),
    ])();
  }],
  ['hostile-template', 3, (random, context) => {
    const template = hostileTemplate(random);
    const webhook = context.all.find((route) => route.path === '/webhooks' && route.method === 'PUT')!;
    const type = context.all.find((route) => route.path === '/content-types' && route.method === 'PUT')!;
    // Text that only looks like a placeholder may be kept as literal text: a 2xx is then no finding.
    return random.pick<() => Omit<GeneratedRequest, 'category'>>([
      () => ({ ...request(random, context, webhook, { ...webhook.body, useCustomPayload: true, customPayload: { text: template } }), mayBeValid: true }),
      () => ({ ...request(random, context, type, typeWithAction({ payloadMode: 'CustomTemplate', customTemplate: { text: template } })), mayBeValid: true }),
      () => ({ ...request(random, context, type, typeWithAction({ navigateUrl: template.slice(0, 2000) })), mayBeValid: true }),
    ])();
  }],
  ['long-text-filter', 3, (random, context) => {
    const route = random.pick(context.all.filter((candidate) => candidate.method === 'POST' && /\/:type(\/ids|\/aggregate|\/aggregategroup)?$/.test(candidate.path)));
    const filter = { type: 'condition', fieldKey: 'title', operator: random.pick(['contains', 'start', 'end']), value: longFilterValue(random), caseInsensitive: random.chance(0.5) };
    return { ...request(random, context, route, { ...route.body, filter }), mayBeValid: false };
  }],
  ['text-at-its-limit', 3, (random, context) => {
    // Ordinary content at the limits the API accepts, and one past them: stored and indexed, or a 400.
    const save = context.all.find((route) => route.path === '/v2/preview-contents/:type' && route.method === 'PUT')!;
    const length = random.pick([MAX_TEXT_LENGTH.Text - 1, MAX_TEXT_LENGTH.Text, MAX_TEXT_LENGTH.Text + 1]);
    // Pairs of UTF-16 units (a four-byte character or two letters), never a lone surrogate.
    const title = Array.from({ length: Math.floor(length / 2) }, () => (random.chance(0.5) ? String.fromCodePoint(0x1f300 + random.int(0x300)) : 'ab')).join('').padEnd(length, 'x');
    return { ...request(random, context, save, { ...save.body, fields: { ...(save.body!.fields as object), title } }), mayBeValid: length <= MAX_TEXT_LENGTH.Text };
  }],
  ['prototype-keys', 4, (random, context) => {
    const key = random.pick(PROTOTYPE_KEYS);
    const pick = (path: string, method: string) => context.all.find((route) => route.path === path && route.method === method)!;
    const check = pick('/contents/:type/encrypt/check', 'POST');
    const decrypt = pick('/contents/:type/encrypt/decrypt', 'POST');
    const encrypt = pick('/contents/:type/encrypt', 'PUT');
    const save = pick('/v2/preview-contents/:type', 'PUT');
    const query = pick('/v2/contents/:type', 'POST');
    return random.pick<() => Omit<GeneratedRequest, 'category'>>([
      // A name the item has no value for is only no match.
      () => ({ ...request(random, context, check, { ...check.body, encryptFields: { [key]: 'x' } }), mayBeValid: true }),
      () => ({ ...request(random, context, decrypt, { ...decrypt.body, encryptFieldKeys: [key] }), mayBeValid: false }),
      () => ({ ...request(random, context, encrypt, { ...encrypt.body, encryptFields: { [key]: 'x' } }), mayBeValid: false }),
      () => ({ ...request(random, context, save, { ...save.body, fields: { title: 'x', [key]: 'x' } }), mayBeValid: false }),
      () => ({ ...request(random, context, save, { ...save.body, translations: { [key]: { de: 'x' } } }), mayBeValid: false }),
      () => ({ ...request(random, context, query, { ...query.body, filter: { type: 'condition', fieldKey: key, operator: 'e', value: 1 } }), mayBeValid: false }),
      () => ({ ...request(random, context, query, { ...query.body, order: { fieldKey: key, sortDir: 'Asc' } }), mayBeValid: false }),
    ])();
  }],
];

const CATEGORIES: [string, number, Make][] = [
  ['bad-json', 12, (random, context) => {
    const route = random.pick(withBody(context.all));
    const { body, parseable } = notJson(random, JSON.stringify(route.body));
    return { ...request(random, context, route), body, mayBeValid: parseable };
  }],
  ['wrong-root', 5, (random, context) => {
    const route = random.pick(withBody(context.all));
    const body = wrongRoot(random);
    // A JSON null body is no body (docs/api.md), which a route whose body is optional takes.
    return { ...request(random, context, route), body, mayBeValid: body === 'null' };
  }],
  ['wrong-field-type', 20, (random, context) => {
    const route = random.pick(withBody(context.all));
    const key = random.pick(Object.keys(route.body!));
    const value = wrongValue(random, route.body![key]);
    return { ...request(random, context, route, { ...route.body, [key]: value }), mayBeValid: readsAsNothing(value) || FREE_FORM_KEYS.has(key) };
  }],
  ['missing-field', 5, (random, context) => {
    const route = random.pick(withBody(context.all));
    const { [random.pick(Object.keys(route.body!))]: _dropped, ...rest } = route.body!;
    return { ...request(random, context, route, rest), mayBeValid: true };
  }],
  ['extra-fields', 3, (random, context) => {
    const route = random.pick(withBody(context.all));
    return { ...request(random, context, route, { ...route.body, ...extraFields(random) }), mayBeValid: true };
  }],
  ['deep-nesting', 3, (random, context) => {
    const route = random.pick(withBody(context.all));
    const key = random.pick(Object.keys(route.body!));
    const base = request(random, context, route, { ...route.body, [key]: DEEP_PLACEHOLDER });
    return { ...base, body: String(base.body).replace(`"${DEEP_PLACEHOLDER}"`, nestedText(500 + random.int(4500))), mayBeValid: FREE_FORM_KEYS.has(key) };
  }],
  ['content-type', 4, (random, context) => {
    const route = random.pick(withBody(context.all));
    const [headers, mayBeValid] = random.pick<[Record<string, string>, boolean]>([
      [{ 'content-type': 'text/plain' }, true],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, true],
      [{ 'content-type': 'multipart/form-data; boundary=fuzz' }, true],
      [{ 'content-type': 'application/json; charset=utf-16' }, false],
      [{ 'content-type': 'application/json; charset=x-unknown' }, false],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, false],
      [{ 'content-type': 'application/json', 'content-encoding': 'deflate' }, false],
      [{ 'content-type': 'application/json', 'content-encoding': 'br' }, false],
      [{ 'content-type': 'application/json', 'content-encoding': 'x-fuzz' }, false],
      [{ 'content-type': 'application/json; charset=latin1' }, true],
      [{ 'content-type': '' }, true],
      [{ 'content-type': ';;;' }, true],
    ]);
    const base = request(random, context, route);
    return { ...base, headers: { ...base.headers, ...headers }, mayBeValid };
  }],
  ['bad-id', 14, (random, context) => {
    const route = random.pick(context.all.filter((candidate) => candidate.path.includes(':')));
    const param = random.pick(paramsOf(route));
    const segment = badSegment(random);
    // A whole number may name a real version of the fixture item, which the requests keep writing to.
    const namesVersion = param === 'n' && /^\d+$/.test(segment);
    return { ...request(random, context, route, route.body, { [param]: segment }), mayBeValid: route.unknownIdsAnswered === true || namesVersion };
  }],
  ['traversal', 8, (random, context) => {
    const targets = context.all.filter((candidate) => /:(imagePath|assetId|workspaceId|id)\b/.test(candidate.path));
    const route = random.pick(targets);
    const param = random.pick(paramsOf(route).filter((name) => ['imagePath', 'assetId', 'workspaceId', 'id'].includes(name)));
    return { ...request(random, context, route, route.body, { [param]: traversal(random) }), mayBeValid: route.unknownIdsAnswered === true };
  }],
  ['upload-chunk', 6, (random, context) => upload(random, context, false)],
  ['bad-filter', 10, (random, context) => {
    const route = random.pick(context.all.filter((candidate) => candidate.method === 'POST' && /\/:type(\/ids|\/aggregate|\/aggregategroup)?$/.test(candidate.path)));
    const body: Record<string, unknown> = { ...route.body };
    let mayBeValid = false;
    const change = random.int(3);
    if (change === 1 && 'order' in body) body.order = badOrder(random);
    else if (change === 2 && 'page' in body) {
      const key = random.pick(Object.keys(BAD_PAGING));
      body[key] = random.pick(BAD_PAGING[key]!);
    } else if (change === 2) body.aggregateType = random.pick(['Median', '', 1, null, ['Sum']]);
    else ({ filter: body.filter, mayBeValid } = badFilter(random));
    return { ...request(random, context, route, body), mayBeValid };
  }],
  ['bad-query', 5, (random, context) => {
    const route = random.pick(context.all.filter((candidate) => candidate.method === 'GET'));
    const base = request(random, context, route);
    const known = Object.keys(route.query ?? {});
    if (known.length === 0 || random.chance(0.2)) {
      return { ...base, path: `${base.path}${base.path.includes('?') ? '&' : '?'}${random.pick(['junk=1', 'a[b]=c', '%zz=%zz', '=', '&&&', 'x=' + 'y'.repeat(5000)])}`, mayBeValid: true };
    }
    const name = random.pick(known);
    const value = random.pick(['abc', '-1', '0', '1.5', '1e309', '%zz', 'NaN', '2026-99-99', '%00', 'Pending%27--']);
    const query = new URLSearchParams({ ...route.query, [name]: 'PLACEHOLDER' }).toString().replace('PLACEHOLDER', value);
    const duplicate = random.chance(0.2) ? `&${name}=1` : '';
    return { ...base, path: `${base.path.split('?')[0]}?${query}${duplicate}`, mayBeValid: FREE_TEXT_QUERY.has(name) || (VALID_QUERY_VALUES[name]?.includes(value) ?? false) };
  }],
  ['unknown-method', 3, (random, context) => {
    const route = random.pick(context.all);
    // Not DELETE: a valid one would delete the fixtures the other requests point at.
    const swapped = route.method === 'GET' ? 'POST' : 'GET';
    const method = random.pick(['PATCH', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH', 'COPY', 'MOVE', 'REPORT', 'TRACE', 'OPTIONS', 'HEAD', 'FOO', 'GETS', 'QUERY', swapped]);
    // HEAD and OPTIONS are answered for any GET route; GET and POST share some paths (an item is read by either).
    return { ...request(random, context, route), method, mayBeValid: ['HEAD', 'OPTIONS', swapped].includes(method) };
  }],
  ['bad-credentials', 2, (random, context) => {
    const route = random.pick(context.all);
    const { fixtures } = context;
    const headers = random.pick<Record<string, string>>([
      {},
      { 'x-api-key': 'wrong-key' },
      { 'x-api-key': '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      { authorization: `Bearer ${'x'.repeat(20_000)}` },
      { 'x-api-key': fixtures.adminToken },
      { authorization: `Bearer ${route.credential === 'read' ? fixtures.writeKey : fixtures.readKey}` },
      { 'x-api-key': fixtures.readKey, authorization: `Bearer ${fixtures.writeKey}` },
    ]);
    const base = request(random, context, route);
    const { 'x-api-key': _key, authorization: _authorization, ...rest } = base.headers ?? {};
    // A read key with a write key beside it, or a route that takes no credential, may be let through.
    return { ...base, headers: { ...rest, ...headers }, mayBeValid: route.credential === 'none' || ('x-api-key' in headers && 'authorization' in headers) };
  }],
];

function oversizeJson(random: SeededRandom, context: Context): Omit<GeneratedRequest, 'category'> {
  const route = random.pick(withBody(context.all));
  const padding = 'x'.repeat(OVERSIZE_JSON_BYTES + random.int(64 * 1024));
  return { ...request(random, context, route, { ...route.body, padding }), mayBeValid: false, expectStatus: 413 };
}

function upload(random: SeededRandom, context: Context, oversize: boolean): Omit<GeneratedRequest, 'category'> {
  const { body, mayBeValid } = badChunk(random, oversize);
  return { method: 'POST', path: '/assets/uploadAsset', headers: { ...credentialHeaders(random, context.fixtures, 'write'), 'content-type': 'application/json' }, body, mayBeValid };
}

function paramsOf(route: Route): string[] {
  return [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
}

/** The route's request with its valid values, `body` as JSON and `overrides` as raw path segments. */
function request(random: SeededRandom, context: Context, route: Route, body = route.body, overrides: Record<string, string> = {}): RawRequest {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => overrides[name] ?? encodePath(context.params[name]!));
  const query = route.query ? `?${new URLSearchParams(route.query).toString()}` : '';
  const headers = credentialHeaders(random, context.fixtures, route.credential);
  if (body === undefined) return { method: route.method, path: `${path}${query}`, headers };
  return { method: route.method, path: `${path}${query}`, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const encodePath = (value: string) => value.split('/').map(encodeURIComponent).join('/');

/** Keys go as X-Api-Key or as a bearer token, as clients send them. */
function credentialHeaders(random: SeededRandom, fixtures: Fixtures, credential: Route['credential']): Record<string, string> {
  if (credential === 'none') return {};
  if (credential === 'admin') return { authorization: `Bearer ${fixtures.adminToken}` };
  const key = credential === 'read' ? fixtures.readKey : fixtures.writeKey;
  return random.chance(0.5) ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
}
