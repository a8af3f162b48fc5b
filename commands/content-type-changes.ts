import { BreakingChangeScan, type BreakingProblem, fieldsWithNewRules, type Stage } from '../src/domain/content-type/breaking-changes';
import type { ContentTypeDefinition } from '../src/domain/content-type/definition';
import type { ContentBody } from '../src/domain/content/events';
import { MAX_PATTERN_WORK_PER_SAVE, patternWork } from '../src/domain/content/pattern';
import { patternCases } from '../src/domain/content/pattern-cases';
import type { PatternThread } from '../infra/regex/pattern-thread';

/** Documents of one stage a check reads at most: beyond them the report says it is not complete. */
export const MAX_CHECKED_PER_STAGE = 10_000;
const PAGE = 500;
/**
 * Pattern work one check may do in all (each item also within MAX_PATTERN_WORK_PER_SAVE): some
 * seconds of the pattern thread at most. Past it the report says it is not complete.
 */
export const MAX_PATTERN_WORK_PER_CHECK = 50 * MAX_PATTERN_WORK_PER_SAVE;

/** A page of a type's stored items in one stage, in a stable order. */
export type StoredPage = (workspaceId: string, contentType: string, stage: Stage, offset: number, limit: number) => Promise<readonly (ContentBody & { readonly itemId: string })[]>;

/** What a change of a type's definition does to its stored items. */
export interface TypeChangeReport {
  readonly contentType: string;
  /** Fields whose rules change (new fields with rules included): only their values were checked. */
  readonly changedFields: readonly string[];
  /** Draft and published documents read. */
  readonly checked: number;
  /** False when a stage holds more than MAX_CHECKED_PER_STAGE documents, or their pattern tests more than MAX_PATTERN_WORK_PER_CHECK: the rest were not checked. */
  readonly complete: boolean;
  readonly problems: readonly BreakingProblem[];
  /** Stored items break (or might: the check was not complete); saving then needs confirmation. */
  readonly breaking: boolean;
}

/**
 * Checks the stored items of a type against the rules `after` gives the fields whose rules change.
 * Reads the read model as of the last acknowledged write: an item saved while the check runs is
 * held to the old rules until its next save.
 */
export async function checkTypeChange(
  storedPage: StoredPage,
  patterns: PatternThread,
  workspaceId: string,
  before: ContentTypeDefinition | null,
  after: ContentTypeDefinition,
): Promise<TypeChangeReport> {
  const fields = before ? fieldsWithNewRules(before, after) : [];
  const scan = new BreakingChangeScan(fields);
  let checked = 0;
  let complete = true;
  let work = 0;
  scanning: for (const stage of fields.length > 0 ? (['draft', 'published'] as const) : []) {
    for (let offset = 0; ; offset += PAGE) {
      if (offset >= MAX_CHECKED_PER_STAGE) {
        complete &&= (await storedPage(workspaceId, after.key, stage, offset, 1)).length === 0;
        break;
      }
      const page = await storedPage(workspaceId, after.key, stage, offset, PAGE);
      const cases = page.map((item) => patternCases(item, fields));
      work += patternWork(cases.flat());
      if (work > MAX_PATTERN_WORK_PER_CHECK) {
        complete = false;
        break scanning;
      }
      const tests = await patterns.tests(cases);
      page.forEach((item, index) => scan.add(stage, item.itemId, item, tests[index]));
      checked += page.length;
      if (page.length < PAGE) break;
    }
  }
  const problems = scan.report();
  return { contentType: after.key, changedFields: fields.map((field) => field.key), checked, complete, problems, breaking: problems.length > 0 || !complete };
}
