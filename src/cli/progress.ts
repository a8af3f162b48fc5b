import { SingleBar } from 'cli-progress';
import type { Position } from '../../infra/eventstore/port';
import type { CliOutput } from './output';

/**
 * A progress bar with an ETA on the output's progress stream. `detail` names the payload
 * values shown after the percentage, e.g. `{events} events`.
 */
export function progressBar(output: CliOutput, label: string, detail: string): SingleBar {
  return new SingleBar({
    stream: output.progress,
    // Also when piped to a log: a progress line every second instead of a redrawn bar.
    noTTYOutput: true,
    notTTYSchedule: 1000,
    format: `${label} [{bar}] {percentage}% | ${detail} | ETA {eta_formatted}`,
    hideCursor: true,
    etaBuffer: 50,
  });
}

/** Steps of a bar driven by a log position rather than a count. */
export const POSITION_STEPS = 1000;

/**
 * How far `position` is towards `head`, in POSITION_STEPS. The log keeps no event count, so
 * the sequence part of the position stands in for it (as in `projections rebuild`).
 */
export function positionSteps(position: Position, head: Position): number {
  if (head.prepare === 0n) return POSITION_STEPS;
  const fraction = Number(position.prepare) / Number(head.prepare);
  return Math.round(Math.min(1, Math.max(0, fraction)) * POSITION_STEPS);
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Events per second so far, for a bar's `{rate}` (0 until time has passed). */
export function eventsPerSecond(events: number, elapsedMs: number): string {
  return count.format(elapsedMs > 0 ? (events * 1000) / elapsedMs : 0);
}

/** "1,234 events in 2.5 s (494 events/s)": the closing line of a long run. */
export function throughput(events: number, elapsedMs: number): string {
  return `${count.format(events)} events in ${(elapsedMs / 1000).toFixed(1)} s (${eventsPerSecond(events, elapsedMs)} events/s)`;
}
