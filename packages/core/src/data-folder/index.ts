export {
  DATA_FOLDER_VARIABLE,
  dataFolder,
  lhapdfFolder,
  theoriesFolder,
  userCacheFolder,
} from './data-folder.js';
