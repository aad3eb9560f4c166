// k6's global open(): a file read in the init context, relative to the
// script (script-globals.ts installs it for every loaded script).
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { current } from './vu-state.js';

/** k6's open() for a script in `scriptDir`. */
export function openIn(/** @type {string} */ scriptDir) {
  /**
   * @param {string} path relative to the script, or absolute
   * @param {string} [mode] 'b' for an ArrayBuffer
   */
  return (path, mode) => {
    if (!current().inInit) throw new Error('open() is only available in the init context');
    const file = isAbsolute(path) ? path : resolve(scriptDir, path.startsWith('file://') ? fileURLToPath(path) : path);
    const bytes = readFileSync(file);
    return mode === 'b' ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes.toString('utf8');
  };
}
