import { contentEvent, type ContentEvent } from '../../src/domain/content/events';
import { findTemplateProblem, renderTemplate } from '../../src/domain/json-template';
import { TEMPLATE_ROOTS } from '../../src/domain/webhook/template';
import { webhookEventTypesOf } from '../../src/domain/webhook/triggers';

const values = {
  eventType: 'Published',
  eventTypeCode: 0,
  deliveryId: 'd1',
  webhookId: 'wh-1',
  workspaceId: 'ws',
  contentType: 'Article',
  contentId: 'item-1',
  fields: { title: 'Hello', views: 42, draft: false, zero: 0, nothing: null, tags: ['a', 'b'], author: { name: 'Ada' } },
  translations: { title: { de: 'Hallo', fr: 'Bonjour' } },
  occurredAt: '2024-05-01T12:00:00.000Z',
};

/** The first problem of a webhook payload template, at the JSON path the 400 would name; undefined when it passes. */
const errorOf = (template: Record<string, unknown>, field = 'customPayload'): { field: string; message: string } | undefined => {
  const problem = findTemplateProblem(template, TEMPLATE_ROOTS);
  return problem ? { field: `${field}${problem.path}`, message: problem.message } : undefined;
};
const nest = (levels: number, leaf: unknown): Record<string, unknown> => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
};

describe('webhook payload template', () => {
  describe('renderTemplate', () => {
    it('given a string that is one placeholder, then the value keeps its JSON type', () => {
      expect(renderTemplate('{{fields.views}}', values)).toBe(42);
      expect(renderTemplate('{{fields.author}}', values)).toEqual({ name: 'Ada' });
      expect(renderTemplate('{{fields.tags}}', values)).toEqual(['a', 'b']);
      expect(renderTemplate('{{fields.draft}}', values)).toBe(false);
      expect(renderTemplate('{{fields.zero}}', values)).toBe(0);
      expect(renderTemplate('{{eventTypeCode}}', values)).toBe(0);
      expect(renderTemplate('{{contentId}}', values)).toBe('item-1');
      expect(renderTemplate('{{translations.title.de}}', values)).toBe('Hallo');
      expect(renderTemplate('{{fields.tags.1}}', values)).toBe('b');
    });

    it('given a whole placeholder whose value is missing or null, then null', () => {
      expect(renderTemplate('{{fields.missing}}', values)).toBeNull();
      expect(renderTemplate('{{fields.title.deeper}}', values)).toBeNull();
      expect(renderTemplate('{{fields.nothing}}', values)).toBeNull();
      expect(renderTemplate('{{translations.title.it}}', values)).toBeNull();
    });

    it('does not read inherited properties', () => {
      expect(renderTemplate('{{fields.constructor}}', values)).toBeNull();
      expect(renderTemplate('{{fields.__proto__}}', values)).toBeNull();
      expect(renderTemplate('x{{fields.toString}}x', values)).toBe('xx');
    });

    it('given placeholders inside text, then they become text', () => {
      expect(renderTemplate('Item {{contentId}} of {{contentType}}', values)).toBe('Item item-1 of Article');
      expect(renderTemplate('views: {{fields.views}}', values)).toBe('views: 42');
      expect(renderTemplate('author: {{fields.author}}', values)).toBe('author: {"name":"Ada"}');
      expect(renderTemplate('tags: {{fields.tags}}', values)).toBe('tags: ["a","b"]');
      expect(renderTemplate('draft={{fields.draft}} zero={{fields.zero}}', values)).toBe('draft=false zero=0');
      expect(renderTemplate('{{contentId}}{{contentType}}', values)).toBe('item-1Article');
    });

    it('given placeholders inside text whose value is missing or null, then the empty string', () => {
      expect(renderTemplate('[{{fields.missing}}]', values)).toBe('[]');
      expect(renderTemplate('[{{fields.nothing}}]', values)).toBe('[]');
    });

    it('allows whitespace inside the braces', () => {
      expect(renderTemplate('{{ contentId }}', values)).toBe('item-1');
      expect(renderTemplate('{{ fields.views }}', values)).toBe(42);
      expect(renderTemplate('id: {{  contentId\t}}!', values)).toBe('id: item-1!');
    });

    it('renders nested objects and arrays', () => {
      const template = {
        id: '{{contentId}}',
        meta: { type: '{{contentType}}', at: 'at {{occurredAt}}', deep: { views: '{{fields.views}}' } },
        list: ['{{fields.title}}', { de: '{{translations.title.de}}' }, ['{{eventTypeCode}}']],
      };
      expect(renderTemplate(template, values)).toEqual({
        id: 'item-1',
        meta: { type: 'Article', at: 'at 2024-05-01T12:00:00.000Z', deep: { views: 42 } },
        list: ['Hello', { de: 'Hallo' }, [0]],
      });
    });

    it('leaves values that are not strings, and strings without placeholders, untouched', () => {
      const template = { n: 7, b: true, f: false, z: null, s: 'plain text', e: '', braces: '{ not } a placeholder' };
      expect(renderTemplate(template, values)).toEqual(template);
      expect(renderTemplate(3, values)).toBe(3);
      expect(renderTemplate(null, values)).toBeNull();
    });

    it('does not change the template', () => {
      const template = { a: ['{{contentId}}'] };
      renderTemplate(template, values);
      expect(template).toEqual({ a: ['{{contentId}}'] });
    });
  });

  describe('findTemplateProblem with the webhook roots', () => {
    it('passes valid templates', () => {
      expect(errorOf({})).toBeUndefined();
      expect(errorOf({ a: 1, b: null, c: true, d: 'no placeholder', e: [] })).toBeUndefined();
      const everyRoot = Object.fromEntries(TEMPLATE_ROOTS.map((root) => [root, `{{${root}}}`]));
      expect(errorOf(everyRoot)).toBeUndefined();
      expect(
        errorOf({
          id: '{{ contentId }}',
          title: 'Title: {{fields.title}} ({{translations.title.de}})',
          nested: { list: ['{{fields.my-field}}', '{{fields.tags.0}}', { x: '{{fields.a_b.c1}}' }] },
          lone: '}} and { and }',
        }),
      ).toBeUndefined();
    });

    it('lists the envelope fields as roots', () => {
      expect([...TEMPLATE_ROOTS].sort()).toEqual(
        ['contentId', 'contentType', 'deliveryId', 'eventType', 'eventTypeCode', 'fields', 'occurredAt', 'translations', 'webhookId', 'workspaceId'].sort(),
      );
    });

    it('rejects an unknown root, naming the JSON path', () => {
      const error = errorOf({ a: { b: ['ok', 'see {{secret.value}}'] } });
      expect(error).toMatchObject({ field: 'customPayload.a.b[1]' });
      expect(error?.message).toContain('secret.value');
      expect(errorOf({ x: '{{Fields.title}}' })).toMatchObject({ field: 'customPayload.x' });
      expect(errorOf({ x: '{{constructor}}' })).toMatchObject({ field: 'customPayload.x' });
    });

    it.each(['{{a..b}}', '{{1x}}', '{{fields.}}', '{{.fields}}', '{{}}', '{{ fields title }}', '{{fields/title}}'])('rejects %s as not a dot path', (text) => {
      expect(errorOf({ p: [{ q: text }] })).toMatchObject({ field: 'customPayload.p[0].q', message: expect.stringContaining('not a dot path') });
    });

    it.each(['{{x', 'a {{contentId', '{{contentId}} and {{', '{{contentId}', '{{ {{contentId}}', '{{a{b}}'])('rejects the unclosed %s', (text) => {
      expect(errorOf({ a: { b: text } })).toMatchObject({ field: 'customPayload.a.b', message: expect.stringContaining('not closed') });
    });

    it('names the path under the given field', () => {
      expect(errorOf({ a: ['{{nope}}'] }, 'payload')).toMatchObject({ field: 'payload.a[0]' });
      expect(errorOf({ a: [[1, ['{{nope}}']]] })).toMatchObject({ field: 'customPayload.a[0][1][0]' });
    });

    it('accepts nesting up to 20 levels and rejects deeper nesting', () => {
      expect(errorOf(nest(20, 'x'))).toBeUndefined();
      expect(errorOf(nest(19, { b: {} }))).toBeUndefined();
      const error = errorOf(nest(21, 'x'));
      expect(error).toMatchObject({ field: `customPayload${'.a'.repeat(21)}` });
      expect(error?.message).toContain('20');
      expect(errorOf(nest(21, {}))).toMatchObject({ message: expect.any(String) });
      const arrays: unknown = Array.from({ length: 21 }).reduce<unknown>((inner) => [inner], 'x');
      expect(errorOf({ a: arrays })).toMatchObject({ field: `customPayload.a${'[0]'.repeat(20)}` });
    });

    it('reads placeholders the way a leftmost regular-expression match would: braces never inside one', () => {
      expect(renderTemplate('{{{contentId}}', values)).toBe('{item-1');
      expect(renderTemplate('{{contentId}}}', values)).toBe('item-1}');
      expect(renderTemplate('{{ {{contentId}} }}', values)).toBe('{{ item-1 }}');
      expect(renderTemplate(' {{contentId}}', values)).toBe(' item-1');
      expect(errorOf({ a: '{ {{contentId}}{' })).toBeUndefined();
      // Removing the placeholder leaves `{{`: still unclosed.
      expect(errorOf({ a: '{{{contentId}}{' })).toMatchObject({ message: expect.stringContaining('not closed') });
    });

    it('checks and renders hostile text in linear time (the former pattern backtracked cubically on `{{` and spaces)', () => {
      const hostile = ['{{' + ' '.repeat(200_000), '{{'.repeat(100_000), '{{ '.repeat(70_000) + '}}', '{{' + ' '.repeat(200_000) + '{'];
      const startedAt = performance.now();
      for (const text of hostile) {
        findTemplateProblem(text, TEMPLATE_ROOTS);
        renderTemplate(text, values);
      }
      // 1,500 characters took 3 s before; 200,000 take a few milliseconds now.
      expect(performance.now() - startedAt).toBeLessThan(1000);
    });

    it('accepts what it renders: a validated template renders without leftover placeholders', () => {
      const template = { a: 'Hi {{ fields.title }}!', b: ['{{translations.title.fr}}'] };
      expect(errorOf(template)).toBeUndefined();
      expect(renderTemplate(template, values)).toEqual({ a: 'Hi Hello!', b: ['Bonjour'] });
    });
  });
});

describe('webhook triggers', () => {
  const ref = { workspaceId: 'ws', itemId: 'item-1', contentType: 'Article' };
  const body = { fields: { title: 'Hello' }, translations: {} };
  const event = (value: ContentEvent): ContentEvent => contentEvent.parse(value);

  it('given a first publish, then Published and PublishedCreated', () => {
    expect(webhookEventTypesOf(event({ type: 'ContentPublished', data: { ...ref, firstPublish: true, ...body } }))).toEqual([0, 3]);
  });

  it('given a later publish, then Published and PublishedUpdated', () => {
    expect(webhookEventTypesOf(event({ type: 'ContentPublished', data: { ...ref, firstPublish: false, ...body } }))).toEqual([0, 4]);
  });

  it('given an unpublish, then Unpublished', () => {
    expect(webhookEventTypesOf(event({ type: 'ContentUnpublished', data: ref }))).toEqual([1]);
  });

  it('given a delete, then Deleted', () => {
    expect(webhookEventTypesOf(event({ type: 'ContentDeleted', data: ref }))).toEqual([2]);
  });

  it.each<[string, ContentEvent]>([
    ['a saved draft', { type: 'ContentDraftSaved', data: { ...ref, created: true, ...body } }],
    ['a deleted draft', { type: 'ContentDraftDeleted', data: ref }],
    ['set encrypted fields', { type: 'ContentEncryptedFieldsSet', data: { ...ref, ciphertexts: { secret: 'c1' } } }],
  ])('given %s, then nothing', (_name, value) => {
    expect(webhookEventTypesOf(event(value))).toEqual([]);
  });
});
