/**
 * What the session watches on each page: dialogs (dismissed at once, so the
 * page never blocks, and reported to the action that caused them), a crashed
 * renderer or a closed page (the death every wait races), and downloads
 * (saved into the workspace directory, or cancelled without one).
 * @module
 */
import { basename, join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { BrowserError } from './errors.js';

/** A page and what happened on it since the session opened it. */
export interface WatchedPage {
  page: Page;
  /** Rejects with a {@link BrowserError} (`crashed` or `closed`) when the page dies. */
  death: Promise<never>;
  /** Whether the page is dead. */
  dead(): boolean;
  /** Dialogs the page opened, in order: `alert: "text"`. */
  dialogs: string[];
  /** Files saved from the page's downloads, as workspace paths. */
  downloads: string[];
  /** Downloads being saved. */
  saving: Set<Promise<void>>;
}

/** Where downloads go and how long saving one may take. */
export interface WatchOptions {
  downloadsDir?: string;
  timeoutMs: number;
}

/** Starts watching `page`. */
export function watchPage(page: Page, options: WatchOptions): WatchedPage {
  let died = false;
  let kill: (error: BrowserError) => void = () => {};
  const death = new Promise<never>((_, reject) => {
    kill = (error) => {
      died = true;
      reject(error);
    };
  });
  death.catch(() => {});
  const watched: WatchedPage = {
    page,
    death,
    dead: () => died,
    dialogs: [],
    downloads: [],
    saving: new Set(),
  };
  page.on('crash', () => kill(new BrowserError('crashed', `The page's renderer crashed (${page.url()})`)));
  page.on('close', () => kill(new BrowserError('closed', 'The page was closed')));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(`${dialog.type()}: "${dialog.message()}"`);
    dialog.dismiss().catch(() => {});
  });
  page.on('download', (download) => {
    const saving = saveDownload(download, watched, options).catch(() => {});
    watched.saving.add(saving);
    void saving.finally(() => watched.saving.delete(saving));
  });
  return watched;
}

async function saveDownload(download: Download, watched: WatchedPage, options: WatchOptions): Promise<void> {
  if (!options.downloadsDir) {
    await download.cancel();
    return;
  }
  // The page names the file: keep its last segment only, so a name cannot climb out of the directory.
  const name = basename(download.suggestedFilename().replaceAll('\\', '/')) || 'download';
  const path = join(options.downloadsDir, name === '..' || name === '.' ? 'download' : name);
  const timer = setTimeout(() => download.cancel().catch(() => {}), options.timeoutMs);
  try {
    await download.saveAs(path);
    watched.downloads.push(path);
  } finally {
    clearTimeout(timer);
  }
}
