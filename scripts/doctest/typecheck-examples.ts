import ts from 'typescript';

/** A type error in an example, placed at its line in the source file the example came from. */
export interface ExampleDiagnostic {
  /** The example's generated file. */
  readonly file: string;
  /** The 1-based line inside the example. */
  readonly line: number;
  readonly message: string;
}

/**
 * Type-checks the given example files with the repository's strict settings
 * (`tsconfig.base.json`), resolving `@partonfit/*` to the packages' sources.
 */
export function typecheckExamples(
  files: readonly string[],
  baseConfig: string,
): ExampleDiagnostic[] {
  const { config } = ts.readConfigFile(baseConfig, (path) => ts.sys.readFile(path)) as {
    config: { compilerOptions: Record<string, unknown> };
  };
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, '.');
  // The examples are not built: no output folders.
  const checked = { ...options };
  delete checked.rootDir;
  delete checked.outDir;
  const program = ts.createProgram([...files], {
    ...checked,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    // An example shows a value by naming it; it need not use every name.
    noUnusedLocals: false,
    customConditions: ['@partonfit/source'],
  });
  const wanted = new Set(files);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file !== undefined && wanted.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const file = diagnostic.file as ts.SourceFile;
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return {
        file: file.fileName,
        line: line + 1,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      };
    });
}
