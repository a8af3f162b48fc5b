import { comparePositions, type Position } from '../infra/eventstore/port';
import type { Checkpoint, ReadStore } from '../infra/readstore/port';

/**
 * The live read models move together: every batch of the shared subscription is applied by all
 * of them, so one checkpoint row says where they all stand. Writing each read model's own row on
 * every batch cost ~23 of the ~38 rows a content write put in the read store.
 *
 * The row is named after its members (`live:` and their checkpoint names, sorted), so anyone who
 * reads the checkpoints (the daemon at its start, status, lag, verify) knows which read models it
 * speaks for without another lookup. A read model stands at the furthest of its own checkpoint
 * and the group checkpoints naming it: its own row moves when it is written alone (a rebuild's
 * swap, an event projected in isolation, the start of a group with other members).
 */
const GROUP_PREFIX = 'live:';
const SEPARATOR = ',';

export function groupCheckpointName(memberCheckpointNames: readonly string[]): string {
  return `${GROUP_PREFIX}${[...memberCheckpointNames].sort().join(SEPARATOR)}`;
}

export function isGroupCheckpoint(name: string): boolean {
  return name.startsWith(GROUP_PREFIX);
}

/** Where each read model stands, by its checkpoint name: its own row or a group row naming it, whichever is further. */
export function resolveCheckpoints(stored: readonly Checkpoint[]): Map<string, Position> {
  const positions = new Map<string, Position>();
  const raise = (name: string, position: Position) => {
    const known = positions.get(name);
    if (!known || comparePositions(position, known) > 0) positions.set(name, position);
  };
  for (const { name, position } of stored) {
    if (!isGroupCheckpoint(name)) raise(name, position);
  }
  for (const { name, position } of stored) {
    if (isGroupCheckpoint(name)) for (const member of groupMembers(name)) raise(member, position);
  }
  return positions;
}

/** The checkpoint names of a group row's members. */
export function groupMembers(groupName: string): string[] {
  return groupName
    .slice(GROUP_PREFIX.length)
    .split(SEPARATOR)
    .filter((member) => member !== '');
}

/** Every stored checkpoint with the group rows resolved into their members' own. */
export function resolvedCheckpointList(stored: readonly Checkpoint[]): Checkpoint[] {
  return [...resolveCheckpoints(stored)].map(([name, position]) => ({ name, position }));
}

/**
 * Removes a read model's checkpoint, its own row and its place in any group row (the group's
 * other members get their own rows at the group's position, then the group row goes): a rebuild
 * that drops another version's collections must leave no claim that they stand anywhere.
 */
export async function deleteCheckpointEverywhere(readStore: Pick<ReadStore, 'listCheckpoints' | 'apply' | 'deleteCheckpoint'>, name: string): Promise<void> {
  const stored = await readStore.listCheckpoints();
  const positions = resolveCheckpoints(stored);
  for (const group of stored.filter((checkpoint) => isGroupCheckpoint(checkpoint.name) && groupMembers(checkpoint.name).includes(name))) {
    const others = groupMembers(group.name).filter((member) => member !== name);
    await readStore.apply(
      [],
      others.map((member) => ({ name: member, position: positions.get(member)! })),
    );
    await readStore.deleteCheckpoint(group.name);
  }
  await readStore.deleteCheckpoint(name);
}
