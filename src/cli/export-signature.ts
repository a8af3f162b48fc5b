import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../../infra/eventstore/canonical-json';
import type { ExportSummary } from './export-format';

/**
 * The signature of an export: HMAC-SHA-256 with EXPORT_SIGNING_KEY over every line before the
 * summary (as written, each with its newline) and then the summary's canonical JSON without the
 * signature itself. It covers the whole file: header, wrapped data key, events with their hashes, counts.
 */
export class ExportSignature {
  private readonly hmac;

  constructor(key: Buffer) {
    this.hmac = createHmac('sha256', key);
  }

  addLine(text: string): void {
    this.hmac.update(`${text}\n`, 'utf8');
  }

  /** Answers the hex signature; the object cannot be used afterwards. */
  finish(summary: Omit<ExportSummary, 'signature'>): string {
    return this.hmac.update(canonicalJson(summary), 'utf8').digest('hex');
  }
}

export function signatureMatches(expected: string, given: string): boolean {
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}
