// The worker thread that checks large contracts (bundled to dist/contractCheckWorker.js): parsing,
// validating and locating the findings of a 1 MiB contract takes hundreds of milliseconds of CPU,
// which on the extension host would freeze every extension in the window.
import { parentPort } from 'node:worker_threads';
import { computeContractCheck } from './contractCheckData';

export interface CheckRequest {
  id: number;
  root: string;
  text: string;
  label: string;
}

parentPort?.on('message', (request: CheckRequest) => {
  try {
    parentPort?.postMessage({
      id: request.id,
      data: computeContractCheck(request.root, request.text, request.label),
    });
  } catch (error) {
    parentPort?.postMessage({
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
