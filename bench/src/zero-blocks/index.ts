export {
  hadronicTables,
  measureGenericZeroRows,
  measureGenericZeroRowsWithinBudget,
  type GenericZeroRows,
  type HadronicTableGroup,
} from './generic-path.js';
export {
  loadRealHadronicTables,
  measureRealTableZeroBlocks,
  realHadronicTables,
  type RealTableZeroBlocks,
} from './real-tables.js';
