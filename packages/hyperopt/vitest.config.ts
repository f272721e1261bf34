import { packageProject } from '../../vitest.shared.js';

export default packageProject('hyperopt');
