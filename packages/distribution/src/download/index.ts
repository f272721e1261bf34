export {
  downloadFile,
  type DownloadedFile,
  type DownloadFileOptions,
  type DownloadProgress,
} from './download-file.js';
export { downloadText } from './http-request.js';
