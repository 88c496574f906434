/** The in-memory session and memory stores against the contracts every store meets. */
import { InMemoryMemoryStore, InMemorySessionStore } from '../../src/index.js';
import { vectorStoreContract, workingMemoryStoreContract } from './memory-store-contract.js';
import { sessionStoreContract } from './session-store-contract.js';

sessionStoreContract('InMemorySessionStore', () => new InMemorySessionStore());
workingMemoryStoreContract('InMemoryMemoryStore', () => new InMemoryMemoryStore());
vectorStoreContract('InMemoryMemoryStore', () => new InMemoryMemoryStore());
