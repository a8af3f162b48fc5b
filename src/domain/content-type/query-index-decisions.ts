import { conflict, type FieldProblem, invalidFields } from '../errors';
import type { ContentTypeState } from './decider';
import type { ContentTypeEvent } from './events';
import {
  forbiddenIndex,
  indexSignature,
  MAX_ADVICE_REASON,
  MAX_FORBIDDEN_INDEXES,
  MAX_QUERY_INDEXES,
  normalizedIndex,
  originOf,
  type QueryIndex,
  shapeOf,
  queryIndexProblems,
  sameQueryIndexes,
  shapeProblems,
} from './query-indexes';

/**
 * An operator's list: the indexes it keeps (declared, or `pinned`: an advised one taken over), in
 * order, and the indexes the advisor may not declare (omitted: as they are). An index sent back
 * with origin `advised` (a list read and written again) is left to the advisor.
 */
export interface DeclareQueryIndexes {
  readonly type: 'DeclareQueryIndexes';
  readonly workspaceId: string;
  readonly key: string;
  readonly indexes: readonly QueryIndex[];
  readonly forbidden?: readonly QueryIndex[];
}

/** The advisor declares an index a frequent, slow query shape needs; at most `budget` advised indexes per type. */
export interface AdviseQueryIndex {
  readonly type: 'AdviseQueryIndex';
  readonly workspaceId: string;
  readonly key: string;
  readonly index: QueryIndex;
  readonly budget: number;
  /** ISO time, kept as the index's advisedAt. */
  readonly at: string;
  readonly reason: string;
}

/** The advisor drops one of its own indexes (unused); an operator's are never dropped this way. */
export interface RetireAdvisedIndex {
  readonly type: 'RetireAdvisedIndex';
  readonly workspaceId: string;
  readonly key: string;
  readonly index: QueryIndex;
  readonly reason: string;
}

type ActiveType = Extract<ContentTypeState, { status: 'active' }>;

export function decideDeclaration(command: DeclareQueryIndexes, state: ActiveType): ContentTypeEvent[] {
  // Indexes sent back as advised are the advisor's, whatever they name (a field removed since included).
  const advisedAt = new Set(command.indexes.flatMap((index, position) => (originOf(index) === 'advised' ? [`indexes.${position}`] : [])));
  const problems = queryIndexProblems(command.indexes, state.definition).filter((problem) => !advisedAt.has(problem.field.split('.').slice(0, 2).join('.')));
  const kept = command.indexes.filter((index) => originOf(index) !== 'advised');
  if (kept.length > MAX_QUERY_INDEXES) problems.push({ field: 'indexes', message: `at most ${MAX_QUERY_INDEXES} declared and pinned query indexes per content type` });
  const forbidden = (command.forbidden ?? state.forbiddenIndexes).map(forbiddenIndex);
  if (command.forbidden) problems.push(...forbiddenProblems(forbidden, new Set(kept.map(indexSignature))));
  if (problems.length > 0) throw invalidFields(problems);

  const current = new Map(state.queryIndexes.map((index) => [indexSignature(index), index]));
  const operator = kept.map((index) => {
    // A pinned index keeps when the advisor declared it.
    const advisedAt = originOf(index) === 'pinned' ? current.get(indexSignature(index))?.advisedAt : undefined;
    return normalizedIndex({ ...index, ...(advisedAt ? { advisedAt } : {}) });
  });
  const taken = new Set([...operator, ...forbidden].map(indexSignature));
  const advised = state.queryIndexes.filter((index) => originOf(index) === 'advised' && !taken.has(indexSignature(index)));
  return declared(command, state, [...operator, ...advised], forbidden);
}

export function decideAdvice(command: AdviseQueryIndex, state: ActiveType): ContentTypeEvent[] {
  const index = normalizedIndex({ ...shapeOf(command.index), origin: 'advised', advisedAt: command.at });
  const problems = queryIndexProblems([index], state.definition, 'index');
  if (problems.length > 0) throw invalidFields(problems);
  const signature = indexSignature(index);
  // Already there (another instance's advisor was quicker, or an operator declared it): nothing to do.
  if (state.queryIndexes.some((existing) => indexSignature(existing) === signature)) return [];
  if (state.forbiddenIndexes.some((existing) => indexSignature(existing) === signature)) throw conflict(`an operator forbade this index on ${command.key}`);
  const advised = state.queryIndexes.filter((existing) => originOf(existing) === 'advised').length;
  if (advised >= command.budget) throw conflict(`${command.key} has its budget of ${command.budget} advised indexes already`);
  return declared(command, state, [...state.queryIndexes, index], state.forbiddenIndexes, command.reason);
}

export function decideRetirement(command: RetireAdvisedIndex, state: ActiveType): ContentTypeEvent[] {
  const signature = indexSignature(command.index);
  const remaining = state.queryIndexes.filter((index) => !(originOf(index) === 'advised' && indexSignature(index) === signature));
  return declared(command, state, remaining, state.forbiddenIndexes, command.reason);
}

function forbiddenProblems(forbidden: readonly QueryIndex[], kept: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (forbidden.length > MAX_FORBIDDEN_INDEXES) problems.push({ field: 'forbidden', message: `at most ${MAX_FORBIDDEN_INDEXES} forbidden indexes per content type` });
  const seen = new Set<string>();
  forbidden.forEach((index, position) => {
    const at = `forbidden.${position}`;
    problems.push(...shapeProblems(index, at));
    const signature = indexSignature(index);
    if (seen.has(signature)) problems.push({ field: at, message: 'is forbidden twice' });
    if (kept.has(signature)) problems.push({ field: at, message: 'is also in indexes: an index is kept or forbidden, not both' });
    seen.add(signature);
  });
  return problems;
}

/** The event for the new lists; none when they are the lists already recorded. */
function declared(
  command: { workspaceId: string; key: string },
  state: ActiveType,
  indexes: readonly QueryIndex[],
  forbidden: readonly QueryIndex[],
  reason?: string,
): ContentTypeEvent[] {
  if (sameQueryIndexes(indexes, state.queryIndexes) && sameQueryIndexes(forbidden, state.forbiddenIndexes)) return [];
  return [
    {
      type: 'ContentTypeQueryIndexesDeclared',
      data: {
        workspaceId: command.workspaceId,
        contentTypeId: state.id,
        key: command.key,
        indexes: [...indexes],
        forbidden: [...forbidden],
        ...(reason === undefined ? {} : { reason: reason.slice(0, MAX_ADVICE_REASON) }),
      },
    },
  ];
}
