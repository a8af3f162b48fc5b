import { ImageTooLargeError, NotAnImageError, type OutputFormat, type RenditionRequest, RenditionTooLargeError } from './renderer';

/** What a render process sends once it has loaded its code and can take a render. */
export const RENDER_PROCESS_READY = 'ready';

/** What the render process is sent: one render. */
export interface RenderJob {
  readonly input: Uint8Array;
  readonly format: OutputFormat;
  readonly request: RenditionRequest;
}

type SentError =
  | { readonly name: 'RenditionTooLargeError'; readonly width: number; readonly height: number; readonly fields: readonly ('width' | 'height')[] }
  | { readonly name: 'ImageTooLargeError' | 'NotAnImageError' | 'Error'; readonly message: string };

/** What it answers: the rendition, or the error renderPixels threw (an Error only crosses a process as data). */
export type RenderReply = { readonly output: Uint8Array } | { readonly error: SentError };

export function replyOfError(error: unknown): RenderReply {
  if (error instanceof RenditionTooLargeError) return { error: { name: 'RenditionTooLargeError', width: error.width, height: error.height, fields: error.fields } };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ImageTooLargeError) return { error: { name: 'ImageTooLargeError', message } };
  if (error instanceof NotAnImageError) return { error: { name: 'NotAnImageError', message } };
  return { error: { name: 'Error', message } };
}

export function errorOfReply(error: SentError): Error {
  switch (error.name) {
    case 'RenditionTooLargeError':
      return new RenditionTooLargeError(error.width, error.height, error.fields);
    case 'ImageTooLargeError':
      return new ImageTooLargeError(error.message);
    case 'NotAnImageError':
      return new NotAnImageError(error.message);
    default:
      return new Error(`the render process failed: ${error.message}`);
  }
}
