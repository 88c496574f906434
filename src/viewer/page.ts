/**
 * The script of the page the viewer handler serves: it defines the elements,
 * and `<tandem-viewer>` in the page does the rest.
 * @module
 */
import { defineViewerElements } from './define.js';

defineViewerElements();
