import type { z } from 'zod';
import type { Policy } from '../auth';
import type { TAGS } from './tags';

/** Who may call an operation: a key holding a policy, the admin token, or anyone. */
export type Access = Policy | 'Admin' | 'Anonymous';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface DocumentedBody {
  /** A named schema (see named()); for route bodies, the schema the route parses with. */
  readonly schema: z.ZodType;
  /** Must pass `schema`: the unit test parses every example. */
  readonly example: unknown;
  /** The body's media type; application/json unless given. */
  readonly mediaType?: string;
  /** Bodies are required unless the route reads a missing body as empty. */
  readonly optional?: boolean;
}

export interface DocumentedResponse {
  readonly description: string;
  /** A named schema of the JSON body. */
  readonly schema?: z.ZodType;
  /** A body that is not JSON (files, images, metrics text). */
  readonly raw?: { readonly mediaType: string; readonly schema: Record<string, unknown> };
  /** Response headers worth knowing, name to description. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One method and path of the API, as the parity test matches it against the express routes. */
export interface DocumentedOperation {
  readonly method: HttpMethod;
  /** The OpenAPI path template, with the route's own parameter names: `/webhooks/{id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: (typeof TAGS)[keyof typeof TAGS]['name'];
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  /** The route's path schema when it has one; other path parameters are plain strings. */
  readonly pathSchema?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly headers?: z.ZodObject;
  /** Descriptions of path, query and header parameters by name. */
  readonly parameters?: Readonly<Record<string, string>>;
  readonly body?: DocumentedBody;
  readonly responses: Readonly<Record<number, DocumentedResponse>>;
  /** problem+json answers beyond those the access and the input imply (401, 403, 400), status to when. */
  readonly errors?: Readonly<Record<number, string>>;
}
