/**
 * The page's script and stylesheet, as the handler serves them.
 * @module
 */

/** The viewer page's files: the script (an ES module) and the stylesheet. */
export interface ViewerAssets {
  script: string;
  style: string;
}
