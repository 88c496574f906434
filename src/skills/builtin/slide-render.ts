/**
 * An outline rendered as a real `.pptx` through `pptxgenjs`, an optional peer
 * loaded on first use: a title slide, then one slide of bullets per outline
 * entry, each with its speaker notes.
 * @module
 */
import { z } from 'zod/v4';
import { BuiltinSkillError } from './errors.js';

/** A deck outline. */
export const outlineSchema = z.object({
  title: z.string().trim().min(1),
  subtitle: z.string().default(''),
  slides: z
    .array(
      z.object({
        title: z.string().trim().min(1),
        bullets: z.array(z.string()).default([]),
        /** Speaker notes. */
        notes: z.string().default(''),
      }),
    )
    .min(1),
});

/** A validated outline. */
export type Outline = z.output<typeof outlineSchema>;

/** The part of a pptxgenjs slide the renderer uses. */
export interface PptxSlide {
  addText(
    text: string | { text: string; options?: Record<string, unknown> }[],
    options?: Record<string, unknown>,
  ): unknown;
  addNotes(notes: string): unknown;
}

/** The part of a pptxgenjs presentation the renderer uses. */
export interface PptxPresentation {
  layout: string;
  title: string;
  author: string;
  addSlide(): PptxSlide;
  write(props: { outputType: 'uint8array' }): Promise<unknown>;
}

/** Loads the `pptxgenjs` class. */
export type PptxLoader = () => Promise<new () => PptxPresentation>;

/** The package the renderer needs. */
export const PPTX_PACKAGE = 'pptxgenjs';

/** Imports `pptxgenjs` (ESM default export, or the CommonJS module itself). */
export const loadPptxGenJS: PptxLoader = async () => {
  const mod = (await import(PPTX_PACKAGE)) as { default?: unknown };
  return (typeof mod.default === 'function' ? mod.default : mod) as new () => PptxPresentation;
};

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'MODULE_NOT_FOUND' ||
    /Cannot find (module|package)/i.test(error instanceof Error ? error.message : '')
  );
}

/** Who a deck is rendered for. */
export interface DeckOptions {
  /** The skill rendering it, named in the error when the package is missing. */
  skillId: string;
  /** The deck's author metadata; default `tandem`. */
  author?: string;
}

/**
 * The `.pptx` bytes of `outline`.
 * @throws BuiltinSkillError `missing_dependency` naming `pptxgenjs` when it is not installed.
 */
export async function renderDeck(
  outline: Outline,
  load: PptxLoader,
  deckOptions: DeckOptions,
): Promise<Uint8Array> {
  const { skillId, author = 'tandem' } = deckOptions;
  let Presentation: new () => PptxPresentation;
  try {
    Presentation = await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new BuiltinSkillError(
      'missing_dependency',
      skillId,
      `Skill '${skillId}' needs the optional package ${PPTX_PACKAGE}: npm install ${PPTX_PACKAGE}`,
      { cause: error },
    );
  }
  const deck = new Presentation();
  deck.layout = 'LAYOUT_WIDE';
  deck.title = outline.title;
  deck.author = author;
  const cover = deck.addSlide();
  cover.addText(outline.title, {
    x: 0.6,
    y: 2.4,
    w: 12.1,
    h: 1.4,
    fontSize: 40,
    bold: true,
    align: 'center',
  });
  if (outline.subtitle) {
    cover.addText(outline.subtitle, { x: 0.6, y: 3.9, w: 12.1, h: 0.8, fontSize: 22, align: 'center' });
  }
  for (const entry of outline.slides) {
    const slide = deck.addSlide();
    slide.addText(entry.title, { x: 0.6, y: 0.4, w: 12.1, h: 0.9, fontSize: 30, bold: true });
    if (entry.bullets.length > 0) {
      const bullets = entry.bullets.map((text) => ({ text, options: { bullet: true, breakLine: true } }));
      slide.addText(bullets, { x: 0.8, y: 1.5, w: 11.7, h: 5.4, fontSize: 20, valign: 'top' });
    }
    if (entry.notes) slide.addNotes(entry.notes);
  }
  const bytes = await deck.write({ outputType: 'uint8array' });
  return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayBuffer);
}
