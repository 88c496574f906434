/** The shipped checker, re-exported so the suite's many importers keep their one path. */
export {
  checkInvariants,
  expectInvariants,
  type InvariantOptions,
} from '../../src/testing/index.js';
