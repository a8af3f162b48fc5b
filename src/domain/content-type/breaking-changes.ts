import type { ContentBody } from '../content/events';
import { PatternTests } from '../content/pattern';
import { ruleProblem } from '../content/value-rules';
import { ownValue } from '../own-value';
import type { ContentTypeDefinition, FieldDefinition } from './definition';

/** The members of a field definition that decide which stored values are valid. */
const RULE_MEMBERS = ['required', 'unique', 'min', 'max', 'minLength', 'maxLength', 'pattern', 'enum'] as const;
/** Item ids a report names per problem; its count covers them all. */
const EXAMPLES_PER_PROBLEM = 5;

export type Stage = 'draft' | 'published';

/** Stored values of one field that a new definition refuses, for one rule and stage. */
export interface BreakingProblem {
  readonly field: string;
  /** required, unique, or the rule's message for the value (`must be at most 5`). */
  readonly rule: string;
  readonly stage: Stage;
  /** How many items hold such a value. */
  readonly items: number;
  readonly examples: readonly string[];
}

/**
 * The fields of `after` whose rules differ from `before`'s field of the same key (new fields with
 * rules included): only their stored values can break. A retyped field is not among them: its old
 * values read as missing in typed queries (docs/field-types.md), as before rules existed.
 */
export function fieldsWithNewRules(before: ContentTypeDefinition, after: ContentTypeDefinition): FieldDefinition[] {
  const previous = new Map(before.fields.map((field) => [field.key, field]));
  return after.fields.filter((field) => {
    const old = previous.get(field.key);
    if (old && old.type !== field.type) return false;
    // Absent, null and false (required, unique) are alike: no rule.
    const rule = (value: unknown) => JSON.stringify(value === undefined || value === false ? null : value);
    return RULE_MEMBERS.some((member) => rule(old?.[member]) !== rule(field[member]));
  });
}

/**
 * Checks stored items, one at a time, against the rules of `fields` as they will be: a missing
 * required value, a value a rule refuses (translations included), a unique value held by more
 * than one item of a stage. Collects counts and a few example ids per field, rule and stage.
 */
export class BreakingChangeScan {
  private readonly problems = new Map<string, { field: string; rule: string; stage: Stage; items: Set<string> }>();
  /** Per unique field and stage, each value (as JSON) → the items holding it. */
  private readonly uniqueHolders = new Map<string, Map<string, string[]>>();

  constructor(private readonly fields: readonly FieldDefinition[]) {}

  /** `patterns` may know the answers of the item's pattern tests already (worked out on another thread). */
  add(stage: Stage, itemId: string, content: ContentBody, patterns = new PatternTests()): void {
    for (const field of this.fields) {
      const value = ownValue(content.fields, field.key);
      const empty = value === undefined || value === null || value === '';
      if (field.required && empty) this.record(field.key, 'required', stage, itemId);
      const translated = Object.values(ownValue(content.translations, field.key) ?? {});
      for (const candidate of empty ? translated : [value, ...translated]) {
        const problem = candidate === null || candidate === '' ? null : ruleProblem(candidate, field, patterns);
        if (problem !== null) this.record(field.key, problem, stage, itemId);
      }
      if (field.unique && !empty) this.holdersOf(field.key, stage, JSON.stringify(value)).push(itemId);
    }
  }

  report(): BreakingProblem[] {
    for (const [scope, byValue] of this.uniqueHolders) {
      const [field, stage] = JSON.parse(scope) as [string, Stage];
      for (const holders of byValue.values()) if (holders.length > 1) for (const itemId of holders) this.record(field, 'unique', stage, itemId);
    }
    this.uniqueHolders.clear();
    // By field (in definition order), then stage (draft first), then required, unique, the other rules.
    const rank = ({ field, rule, stage }: { field: string; rule: string; stage: Stage }) =>
      this.fields.findIndex((candidate) => candidate.key === field) * 100 + (stage === 'draft' ? 0 : 10) + (rule === 'required' ? 0 : rule === 'unique' ? 1 : 2);
    return [...this.problems.values()]
      .sort((a, b) => rank(a) - rank(b))
      .map(({ field, rule, stage, items }) => ({ field, rule, stage, items: items.size, examples: [...items].slice(0, EXAMPLES_PER_PROBLEM) }));
  }

  private holdersOf(field: string, stage: Stage, value: string): string[] {
    const scope = JSON.stringify([field, stage]);
    const byValue = this.uniqueHolders.get(scope) ?? new Map<string, string[]>();
    this.uniqueHolders.set(scope, byValue);
    const holders = byValue.get(value) ?? [];
    byValue.set(value, holders);
    return holders;
  }

  private record(field: string, rule: string, stage: Stage, itemId: string): void {
    const key = JSON.stringify([field, rule, stage]);
    const problem = this.problems.get(key) ?? { field, rule, stage, items: new Set<string>() };
    this.problems.set(key, problem);
    problem.items.add(itemId);
  }
}
