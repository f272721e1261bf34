export {
  LAGRANGE_UPDATE_EVERY,
  lagrangeMultiplierAt,
  lagrangeSchedule,
  type LagrangeSchedule,
  type LagrangeSettings,
} from './lagrange-schedule.js';
