import type { Position } from '../../../infra/eventstore/port';

const DIGITS = 20;

/**
 * A log position as 40 decimal digits (commit, then prepare, each zero-padded to 20): such
 * strings sort as the positions do under any collation, so a read model can index, compare
 * and page by them.
 */
export function sortablePosition(position: Position): string {
  return `${position.commit.toString().padStart(DIGITS, '0')}${position.prepare.toString().padStart(DIGITS, '0')}`;
}

export function positionFromSortable(text: string): Position | null {
  if (!/^\d{40}$/.test(text)) return null;
  return { commit: BigInt(text.slice(0, DIGITS)), prepare: BigInt(text.slice(DIGITS)) };
}
