/** A value of the Python literal subset that `.npy` headers are written in. */
export type PythonLiteral =
  string | number | boolean | null | PythonLiteral[] | { readonly [key: string]: PythonLiteral };

/**
 * Parses the Python literal subset of `.npy` headers: dicts, tuples and lists (both as arrays),
 * quoted strings, integers and floats, `True`, `False` and `None`.
 *
 * @throws SyntaxError naming the reason and character position on anything else
 */
export function parsePythonLiteral(text: string): PythonLiteral {
  let position = 0;
  const fail = (reason: string): never => {
    throw new SyntaxError(`${reason} at character ${position}`);
  };
  const skipSpace = () => {
    while (position < text.length && /\s/.test(text.charAt(position))) position++;
  };
  const expect = (character: string) => {
    skipSpace();
    if (text.charAt(position) !== character) fail(`expected '${character}'`);
    position++;
  };

  const parseString = (): string => {
    const quote = text.charAt(position);
    const end = text.indexOf(quote, position + 1);
    if (end === -1) fail('unterminated string');
    const value = text.slice(position + 1, end);
    if (value.includes('\\')) fail('escapes in strings are not supported');
    position = end + 1;
    return value;
  };

  const parseSequence = (close: string): PythonLiteral[] => {
    const items: PythonLiteral[] = [];
    position++;
    for (;;) {
      skipSpace();
      if (text.charAt(position) === close) break;
      items.push(parseValue());
      skipSpace();
      if (text.charAt(position) === ',') position++;
      else if (text.charAt(position) !== close) fail(`expected ',' or '${close}'`);
    }
    position++;
    return items;
  };

  const parseDict = (): Record<string, PythonLiteral> => {
    const entries: Record<string, PythonLiteral> = {};
    position++;
    for (;;) {
      skipSpace();
      if (text.charAt(position) === '}') break;
      const key = parseValue();
      if (typeof key !== 'string') return fail('expected a string key');
      expect(':');
      entries[key] = parseValue();
      skipSpace();
      if (text.charAt(position) === ',') position++;
      else if (text.charAt(position) !== '}') fail("expected ',' or '}'");
    }
    position++;
    return entries;
  };

  function parseValue(): PythonLiteral {
    skipSpace();
    if (position >= text.length) fail('unexpected end');
    const character = text.charAt(position);
    if (character === '{') return parseDict();
    if (character === '(') return parseSequence(')');
    if (character === '[') return parseSequence(']');
    if (character === "'" || character === '"') return parseString();
    const word = /^(True|False|None|[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?L?)/.exec(
      text.slice(position),
    );
    if (word === null) return fail('unexpected character');
    position += word[0].length;
    if (word[0] === 'True') return true;
    if (word[0] === 'False') return false;
    if (word[0] === 'None') return null;
    return Number(word[0].replace(/L$/, ''));
  }

  const value = parseValue();
  skipSpace();
  if (position !== text.length) fail('unexpected text after the value');
  return value;
}
