import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './openapi/build-document';
import { sendProblem } from './problem';

interface DocumentedPath {
  readonly template: string;
  readonly pattern: RegExp;
  readonly methods: readonly { readonly method: string; readonly summary: string; readonly body: 'required' | 'optional' | 'none' }[];
}

/**
 * The answer to a request no route took whose path the API has under other methods: 405 with
 * `Allow` and a detail that says what to send there instead ("GET /contents/Article is not
 * answered; this path takes PUT with a JSON body: ..."). Paths the API does not have fall
 * through to the 404. Built from the OpenAPI document, whose paths the parity test holds equal
 * to the routes.
 */
export function wrongMethod(document: OpenApiDocument): RequestHandler {
  const paths = Object.entries(document.paths).map(([template, operations]) => documentedPath(template, operations));
  return (req, res, next) => {
    const matching = paths.filter((path) => path.pattern.test(req.path));
    if (matching.length === 0) return next();
    const offered = matching.flatMap((path) => path.methods.map((operation) => ({ ...operation, template: path.template })));
    const allow = [...new Set(offered.map((operation) => operation.method))];
    if (allow.includes('GET')) allow.push('HEAD');
    const takes = offered.map((operation) => `${operation.method} ${operation.template}${BODY[operation.body]} (${operation.summary})`).join('; ');
    res.set('Allow', allow.join(', '));
    sendProblem(res, 405, `${req.method} ${req.path} is not answered; this path takes ${takes}`);
  };
}

const BODY = { required: ' with a JSON body', optional: ' with an optional JSON body', none: '' } as const;

function documentedPath(template: string, operations: Record<string, Record<string, unknown>>): DocumentedPath {
  // Express matches paths without regard to case and with or without a trailing slash.
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return {
    template,
    pattern: new RegExp(`^${source}/?$`, 'i'),
    methods: Object.entries(operations).map(([method, operation]) => {
      const body = operation.requestBody as { required?: boolean } | undefined;
      return { method: method.toUpperCase(), summary: String(operation.summary), body: body ? (body.required ? 'required' : 'optional') : 'none' };
    }),
  };
}
