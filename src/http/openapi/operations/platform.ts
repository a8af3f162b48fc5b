import { z } from 'zod';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { TAGS } from '../tags';

const TAG = TAGS.platform.name;

const liveness = named('Liveness', z.object({ status: z.literal('ok') }));
const readiness = named(
  'Readiness',
  z.object({
    status: z.enum(['ok', 'degraded', 'unavailable']).describe('unavailable: a check is down; degraded: a check needs an operator while the instance serves'),
    checks: z
      .record(z.string(), z.enum(['up', 'down', 'degraded']))
      .describe('each store by name, the projections, and eventLog (degraded while the log fails a tamper check: see the service audit feed, GET /admin/audit)'),
  }),
);
const serverTime = named('ServerTime', z.object({ value: z.number().int().describe('Unix time in milliseconds') }));

const readinessResponses = {
  200: { description: 'every store answers (status degraded: the event log needs an operator)', schema: readiness },
  503: { description: 'a store does not answer (the body names it)', schema: readiness },
};

export const platformOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    tag: TAG,
    summary: 'Readiness (same as /health/ready)',
    access: 'Anonymous',
    responses: readinessResponses,
  },
  {
    method: 'get',
    path: '/health/live',
    operationId: 'getLiveness',
    tag: TAG,
    summary: 'Liveness: the process answers',
    access: 'Anonymous',
    responses: { 200: { description: 'the process is up', schema: liveness } },
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    tag: TAG,
    summary: 'Readiness: every store answers',
    access: 'Anonymous',
    responses: readinessResponses,
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: TAG,
    summary: 'Prometheus metrics',
    description: 'Text exposition format. Labels carry route patterns and outcomes, never ids or keys.',
    access: 'Anonymous',
    responses: { 200: { description: 'the metrics', raw: { mediaType: 'text/plain', schema: { type: 'string' } } } },
  },
  {
    method: 'get',
    path: '/utility/server-time',
    operationId: 'getServerTime',
    tag: TAG,
    summary: 'The server time',
    access: 'Anonymous',
    responses: { 200: { description: 'the server time', schema: serverTime } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: TAG,
    summary: 'This API reference as an OpenAPI 3.1 document',
    access: 'Anonymous',
    responses: { 200: { description: 'the document', raw: { mediaType: 'application/json', schema: { type: 'object' } } } },
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getApiReferencePage',
    tag: TAG,
    summary: 'This API reference, browsable (Swagger UI)',
    access: 'Anonymous',
    responses: { 200: { description: 'the page', raw: { mediaType: 'text/html', schema: { type: 'string' } } } },
  },
];
