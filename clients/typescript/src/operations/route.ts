import type { Operations } from '../generated/api-types';

export type OperationId = keyof Operations;

/** One documented operation, as the SDK calls it. */
export interface Route<Id extends OperationId = OperationId> {
  readonly operationId: Id;
  readonly method: Operations[Id]['method'];
  readonly path: Operations[Id]['path'];
  /** The media type of the body, when it is not application/json. */
  readonly bodyMediaType?: string;
}

/** A route whose method and path the compiler checks against the operation of that id. */
export function route<Id extends OperationId>(operationId: Id, method: Operations[Id]['method'], path: Operations[Id]['path'], bodyMediaType?: string): Route<Id> {
  return { operationId, method, path, ...(bodyMediaType === undefined ? {} : { bodyMediaType }) };
}
