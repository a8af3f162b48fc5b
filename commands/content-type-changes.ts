import { BreakingChangeScan, type BreakingProblem, fieldsWithNewRules, type Stage } from '../src/domain/content-type/breaking-changes';
import type { ContentTypeDefinition } from '../src/domain/content-type/definition';
import type { ContentBody } from '../src/domain/content/events';

/** Documents of one stage a check reads at most: beyond them the report says it is not complete. */
export const MAX_CHECKED_PER_STAGE = 10_000;
const PAGE = 500;

/** A page of a type's stored items in one stage, in a stable order. */
export type StoredPage = (workspaceId: string, contentType: string, stage: Stage, offset: number, limit: number) => Promise<readonly (ContentBody & { readonly itemId: string })[]>;

/** What a change of a type's definition does to its stored items. */
export interface TypeChangeReport {
  readonly contentType: string;
  /** Fields whose rules change (new fields with rules included): only their values were checked. */
  readonly changedFields: readonly string[];
  /** Draft and published documents read. */
  readonly checked: number;
  /** False when a stage holds more than MAX_CHECKED_PER_STAGE documents: the rest were not read. */
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
export async function checkTypeChange(storedPage: StoredPage, workspaceId: string, before: ContentTypeDefinition | null, after: ContentTypeDefinition): Promise<TypeChangeReport> {
  const fields = before ? fieldsWithNewRules(before, after) : [];
  const scan = new BreakingChangeScan(fields);
  let checked = 0;
  let complete = true;
  for (const stage of fields.length > 0 ? (['draft', 'published'] as const) : []) {
    for (let offset = 0; ; offset += PAGE) {
      if (offset >= MAX_CHECKED_PER_STAGE) {
        complete &&= (await storedPage(workspaceId, after.key, stage, offset, 1)).length === 0;
        break;
      }
      const page = await storedPage(workspaceId, after.key, stage, offset, PAGE);
      for (const item of page) scan.add(stage, item.itemId, item);
      checked += page.length;
      if (page.length < PAGE) break;
    }
  }
  const problems = scan.report();
  return { contentType: after.key, changedFields: fields.map((field) => field.key), checked, complete, problems, breaking: problems.length > 0 || !complete };
}
