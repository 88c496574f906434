/**
 * The live view: a CDP screencast of the page (`Page.startScreencast`) whose
 * frames become `browser_stream` events while a browser tool runs. Frames
 * outside a call are acknowledged and dropped, so nothing is emitted after a
 * run has ended; an action the screencast sent no frame for ends with one
 * captured frame, so the view always shows the page the action left.
 * @module
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Emitter } from '../core/events.js';
import { withDeadline } from './deadline.js';

/** Size and rate of the live view's frames. */
export interface BrowserStreamOptions {
  /** Largest frame width in pixels. Default 800. */
  maxWidth?: number;
  /** Largest frame height in pixels. Default 600. */
  maxHeight?: number;
  /** JPEG quality, 0–100. Default 60. */
  quality?: number;
  /** Send every n-th frame the page paints. Default 2. */
  everyNthFrame?: number;
}

interface Frame {
  data: string;
  sessionId: number;
  metadata: { deviceWidth: number; deviceHeight: number };
}

// A crashed or closed page never answers: CDP calls of the live view are bounded.
const CDP_TIMEOUT_MS = 2_000;

/** A running screencast of one page. */
export class Screencast {
  /** Where frames go; none: dropped. */
  target: Emitter | undefined;
  /** Frames emitted so far. */
  emitted = 0;

  private constructor(
    private readonly cdp: CDPSession,
    private readonly page: Page,
    private readonly options: BrowserStreamOptions,
  ) {}

  /** Starts a screencast of `page`. */
  static async start(
    context: BrowserContext,
    page: Page,
    options: BrowserStreamOptions,
  ): Promise<Screencast> {
    const cast = new Screencast(await context.newCDPSession(page), page, options);
    cast.cdp.on('Page.screencastFrame', (frame: Frame) => {
      cast.cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
      cast.send(frame.data, frame.metadata.deviceWidth, frame.metadata.deviceHeight);
    });
    await cast.cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: options.quality ?? 60,
      maxWidth: options.maxWidth ?? 800,
      maxHeight: options.maxHeight ?? 600,
      everyNthFrame: options.everyNthFrame ?? 2,
    });
    return cast;
  }

  /** Emits one frame captured now (the viewport, scaled to the frame limits). */
  async capture(): Promise<void> {
    const viewport = this.page.viewportSize();
    if (!viewport || !this.target) return;
    const scale = Math.min(
      1,
      (this.options.maxWidth ?? 800) / viewport.width,
      (this.options.maxHeight ?? 600) / viewport.height,
    );
    const shot = this.cdp.send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: this.options.quality ?? 60,
      clip: { x: 0, y: 0, width: viewport.width, height: viewport.height, scale },
    });
    const { data } = await withDeadline(shot, { what: 'capturing a frame', timeoutMs: CDP_TIMEOUT_MS });
    this.send(data, viewport.width * scale, viewport.height * scale);
  }

  /** Stops the screencast; a page that does not answer counts as stopped. */
  async stop(): Promise<void> {
    const stopping = this.cdp.send('Page.stopScreencast').then(() => this.cdp.detach());
    await withDeadline(stopping, { what: 'stopping the live view', timeoutMs: CDP_TIMEOUT_MS }).catch(
      () => {},
    );
  }

  private send(data: string, width: number, height: number): void {
    if (!this.target) return;
    this.emitted++;
    this.target.emit('browser_stream', {
      mediaType: 'image/jpeg',
      data,
      width: Math.round(width),
      height: Math.round(height),
      url: this.page.url(),
    });
  }
}
