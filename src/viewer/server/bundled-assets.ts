/**
 * Where the handler gets the page's script and stylesheet by default. In the
 * package the build replaces this module with one returning them as strings
 * (the `viewer-assets` plugin in tsup.config.ts), so the handler reads no
 * file and runs on any runtime; in the repository (tests, `npm run demo`)
 * they are built from src/viewer on first use, with the same builder.
 * @module
 */
import type { ViewerAssets } from './assets.js';

/** The page's script and stylesheet. */
export async function bundledAssets(): Promise<ViewerAssets> {
  const { buildViewerAssets } = await import('../../../scripts/viewer-assets.js');
  const { script, style } = await buildViewerAssets();
  return { script, style };
}
