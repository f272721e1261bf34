import { LineCounter, parseDocument, type Document } from 'yaml';
import { InputFileError } from '../errors/index.js';

/**
 * Parses `text` (the content of `file`) with the general `yaml` parser, keeping a line counter
 * so that later complaints can name the line of any node.
 *
 * @throws InputFileError naming the file and the line of the first syntax error
 */
export function parseYamlDocument(
  text: string,
  file: string,
): { readonly document: Document.Parsed; readonly lines: LineCounter } {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  const error = document.errors.at(0);
  if (error !== undefined) {
    throw new InputFileError({
      file,
      line: error.linePos?.[0].line,
      problem: `not valid YAML: ${error.message.split('\n')[0]}`,
      cause: error,
    });
  }
  return { document, lines };
}
