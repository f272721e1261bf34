import { basename } from 'node:path';
import { getLhapdfSet, getTheory, type GetEvent, type GetResult } from '@partonfit/distribution';
import { defineCommand, UsageError } from './define-command.js';
import { showProgress, type Terminal } from './terminal.js';

const BAR_WIDTH = 30;

function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/** `theory_200.tgz [########------]  45%  123.4 of 274.0 MB`, or without a total the bytes. */
function progressLine(name: string, received: number, total: number | undefined): string {
  if (total === undefined || total === 0) return `${name}  ${megabytes(received)} MB`;
  const filled = Math.round((received / total) * BAR_WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
  const percent = `${Math.floor((100 * received) / total)}%`.padStart(4);
  return `${name} [${bar}] ${percent}  ${megabytes(received)} of ${megabytes(total)} MB`;
}

/**
 * Shows a download's progress: a bar on the status line of a terminal, else a plain line at
 * every further tenth of the file; and a line for each stage after the download.
 */
function progressReporter(terminal: Terminal): (event: GetEvent) => void {
  let printedTenths = -1;
  return (event) => {
    if (event.kind !== 'download') {
      terminal.status?.('');
      const stage = event.kind === 'unpack' ? `unpacking ${basename(event.archive)}` : 'checking';
      terminal.error(`${stage}\n`);
      return;
    }
    const { url, received, total } = event.progress;
    const line = progressLine(basename(new URL(url).pathname), received, total);
    const tenths = total === undefined ? 0 : Math.floor((10 * received) / total);
    const plain = tenths > printedTenths;
    if (plain) printedTenths = tenths;
    showProgress(terminal, line, plain);
  };
}

/** What `get` did, in words. */
function describeResult(what: string, result: GetResult, lookHint: string): string {
  if (result.url === undefined) return `${what} is already in ${result.folder}\n`;
  const { download } = result;
  const fetched =
    download === undefined
      ? `unpacked the archive an interrupted run had downloaded from ${result.url}`
      : `downloaded ${megabytes(download.bytes)} MB from ${result.url}${download.resumedBytes > 0 ? ` (resumed after ${megabytes(download.resumedBytes)} MB)` : ''}`;
  return `${what}: ${result.folder}\n  ${fetched}\n  ${lookHint}\n`;
}

/**
 * `partonfit get theory <ID>` and `partonfit get pdf <LHAPDF set>`: download an NNPDF theory or
 * an LHAPDF set into the data folder (see `@partonfit/distribution`), where `fit`, `check` and
 * `predict` look for theories and sets that a runcard does not place with `data_paths`.
 */
export const getCommand = defineCommand({
  name: 'get',
  summary: 'download an NNPDF theory or an LHAPDF set into the data folder ($PARTONFIT_DATA)',
  usage: 'partonfit get (theory <ID> | pdf <LHAPDF set name>) [--data <folder>]',
  options: { data: { type: 'string' } },
  positionals: 2,
  run: async ({ positionals: [kind, name], values }, terminal) => {
    const options = { dataFolder: values.data, report: progressReporter(terminal) };
    if (kind === 'theory') {
      if (!/^\d[\d_]*$/.test(name)) {
        throw new UsageError(`expected a theory id (a non-negative integer), got '${name}'`);
      }
      const theoryId = Number(name.replaceAll('_', ''));
      const result = await getTheory(theoryId, options);
      terminal.status?.('');
      terminal.out(
        describeResult(
          `theory ${theoryId}`,
          result,
          `runcards with theoryid ${theoryId} and no data_paths.theories find it`,
        ),
      );
      return;
    }
    if (kind === 'pdf') {
      const result = await getLhapdfSet(name, options);
      terminal.status?.('');
      terminal.out(
        describeResult(
          `LHAPDF set ${name}`,
          result,
          `runcards without data_paths.lhapdf find it; predict takes --pdf ${name}`,
        ),
      );
      return;
    }
    throw new UsageError(`expected 'theory' or 'pdf', got '${kind}'`);
  },
});
