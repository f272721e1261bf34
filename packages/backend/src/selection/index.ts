export {
  BACKEND_CANDIDATES,
  BACKEND_REQUESTS,
  TFJS_VERSION,
  type BackendCandidate,
  type BackendName,
  type BackendRequest,
} from './backend-candidates.js';
export {
  backendUnavailableReason,
  describeBackendSelection,
  initBackend,
  type BackendSelection,
  type InitBackendOptions,
  type SkippedBackend,
} from './init-backend.js';
