import { jsonMemberText } from '../../src/http/json-member';

describe('jsonMemberText', () => {
  it('answers the value of a member exactly as written', () => {
    const json = '{ "a" : 1, "payload" :  { "b" : "x}]\\"{" ,"2":[1.50, 1e3, null] } , "c":true}';
    expect(jsonMemberText(json, 'payload')).toBe('{ "b" : "x}]\\"{" ,"2":[1.50, 1e3, null] }');
    expect(jsonMemberText(json, 'a')).toBe('1');
    expect(jsonMemberText(json, 'c')).toBe('true');
  });

  it('reads strings, arrays and scalars, escaped keys, and takes the last of duplicate members as JSON.parse does', () => {
    expect(jsonMemberText('{"payload":"a\\\\"}', 'payload')).toBe('"a\\\\"');
    expect(jsonMemberText('{"payload":[{"x":"]"}]}', 'payload')).toBe('[{"x":"]"}]');
    expect(jsonMemberText('\uFEFF\n{"pay\\u006coad":-0.5}', 'payload')).toBe('-0.5');
    const duplicated = '{"payload":1,"payload":{"last":true}}';
    expect(jsonMemberText(duplicated, 'payload')).toBe('{"last":true}');
    expect(JSON.parse(jsonMemberText(duplicated, 'payload')!)).toEqual((JSON.parse(duplicated) as { payload: unknown }).payload);
  });

  it('answers undefined when the member is missing or the JSON is not an object', () => {
    expect(jsonMemberText('{"other":{"payload":1}}', 'payload')).toBeUndefined();
    expect(jsonMemberText('[{"payload":1}]', 'payload')).toBeUndefined();
    expect(jsonMemberText('', 'payload')).toBeUndefined();
    // Not JSON: the scan ends rather than looping.
    expect(jsonMemberText('{"payload":"unterminated', 'payload')).toBe('"unterminated');
    expect(jsonMemberText('{"payload":{"a":[', 'payload')).toBe('{"a":[');
  });
});
