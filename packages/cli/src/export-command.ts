import { resolve } from 'node:path';
import { BACKEND_REQUESTS, describeBackendSelection, initBackend } from '@partonfit/backend';
import { exportFit, fitBackendRequest } from '@partonfit/trainer';
import { defineCommand } from './define-command.js';
import { backendOption } from './option-values.js';

const USAGE = `partonfit export <fit folder> [--backend ${BACKEND_REQUESTS.join('|')}] [--tfjs]`;

/**
 * `partonfit export <fit>`: rebuilds every replica from its `weights.h5` and the fit's
 * `runcard.yml` and rewrites its `<fit>.exportgrid` and the PDF-derived entries of its
 * `<fit>.json` (see `exportFit`); with `--tfjs`, also saves each replica as a tfjs model in
 * `nnfit/replica_<r>/tfjs/`. Without `--backend` it runs on the backend that trained the fit
 * (when that is cpu or wasm), so the files come out identical to the fit's.
 */
export const exportCommand = defineCommand({
  name: 'export',
  summary: "re-create a fit's exportgrids and JSON summaries from its replicas' weights.h5",
  usage: USAGE,
  options: { backend: { type: 'string' }, tfjs: { type: 'boolean', default: false } },
  positionals: 1,
  run: async ({ values, positionals: [folder] }, terminal) => {
    const fitFolder = resolve(folder);
    const request = backendOption(values.backend) ?? (await fitBackendRequest(fitFolder));
    terminal.error(`${describeBackendSelection(await initBackend(request))}\n`);
    const exported = await exportFit(fitFolder, {
      tfjs: values.tfjs,
      report: (line) => {
        terminal.out(`${line}\n`);
      },
    });
    terminal.out(`exported ${exported.length} replica(s) of ${fitFolder}\n`);
  },
});
