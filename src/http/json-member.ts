const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\uFEFF']);

/**
 * The source text of the value of member `name` of the JSON object `json`, exactly as written
 * (key order, spacing, number and escape forms), or undefined when the object has no such
 * member. `json` must be valid JSON (it was parsed before); anything else ends the scan
 * without looping. As in JSON.parse, the last of duplicate members wins.
 */
export function jsonMemberText(json: string, name: string): string | undefined {
  let at = skipWhitespace(json, 0);
  if (json[at] !== '{') return undefined;
  at = skipWhitespace(json, at + 1);
  let found: string | undefined;
  while (json[at] === '"') {
    const keyEnd = stringEnd(json, at);
    const key = JSON.parse(json.slice(at, keyEnd)) as string;
    at = skipWhitespace(json, skipWhitespace(json, keyEnd) + 1);
    const valueEnd = valueEndAt(json, at);
    if (key === name) found = json.slice(at, valueEnd);
    at = skipWhitespace(json, valueEnd);
    if (json[at] === ',') at = skipWhitespace(json, at + 1);
  }
  return found;
}

function skipWhitespace(json: string, at: number): number {
  while (at < json.length && WHITESPACE.has(json[at]!)) at++;
  return at;
}

/** The index after the closing quote of the string that opens at `start`. */
function stringEnd(json: string, start: number): number {
  let at = start + 1;
  while (at < json.length && json[at] !== '"') at += json[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** The index after the value that starts at `start`. */
function valueEndAt(json: string, start: number): number {
  const first = json[start];
  if (first === '"') return stringEnd(json, start);
  if (first === '{' || first === '[') {
    let depth = 0;
    let at = start;
    do {
      const char = json[at];
      if (char === '"') {
        at = stringEnd(json, at);
        continue;
      }
      if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') depth--;
      at++;
    } while (depth > 0 && at < json.length);
    return at;
  }
  let at = start;
  while (at < json.length && !WHITESPACE.has(json[at]!) && json[at] !== ',' && json[at] !== '}') at++;
  return at;
}
