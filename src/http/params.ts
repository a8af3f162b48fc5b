import type { Request } from 'express';
import { badRequest } from './problem';

/** A named path parameter as one string (Express types allow arrays for wildcards). */
export function pathParam(req: Request, name: string): string {
  const value: unknown = req.params[name];
  if (typeof value !== 'string' || value === '') throw badRequest(`missing path parameter ${name}`, [{ field: name, message: 'is required' }]);
  return value;
}
