export { plainYamlValue } from './plain-yaml-value.js';
export { parseYamlDocument } from './parse-yaml-document.js';
