export { plainYamlValue } from './plain-yaml-value.js';
