/**
 * The one test for "a JSON object", shared with the model layer.
 * @module
 */
export { isRecord } from '../model/records.js';
