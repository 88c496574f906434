/**
 * The compaction note on the system prompt: appended once to its dynamic
 * end, by the context manager when it sends a request and by the compressor
 * when it weighs a result.
 * @module
 */
import type { ModelRequest, SystemPart } from '../model/types.js';
import { COMPACTION_NOTE } from './summary-prompt.js';

// One object, so the counter's per-part cache counts the note once.
const NOTE_PART: SystemPart = Object.freeze({ text: COMPACTION_NOTE });

/** `system` with the compaction note appended to its dynamic end, unless it already holds it. */
export function withCompactionNote(system: ModelRequest['system']): ModelRequest['system'] {
  if (!system) return COMPACTION_NOTE;
  if (typeof system === 'string')
    return system.includes(COMPACTION_NOTE) ? system : `${system}\n\n${COMPACTION_NOTE}`;
  if (system.some((part) => part.text.includes(COMPACTION_NOTE))) return system;
  return [...system, NOTE_PART];
}
