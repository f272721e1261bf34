export {
  measureRealTableZeroBlocks,
  realHadronicTables,
  type RealTableZeroBlocks,
} from './real-tables.js';
