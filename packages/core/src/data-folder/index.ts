export {
  DATA_FOLDER_VARIABLE,
  dataFolder,
  lhapdfFolder,
  theoriesFolder,
  userCacheFolder,
} from './data-folder.js';
export {
  CACHE_LIMIT_VARIABLE,
  cacheEntries,
  cacheLimit,
  DEFAULT_CACHE_LIMIT,
  evictLeastRecentlyUsed,
  formatBytes,
  markCacheEntryUsed,
  parseAge,
  parseByteSize,
  removeCacheEntries,
  trimCacheAfterWrite,
  type CacheEntry,
  type CacheEntryKind,
} from './user-cache.js';
