/** The deterministic embedding double: same text, same vector; shared words, higher cosine. */
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/testing/index.js';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('HashEmbedder', () => {
  it('gives unit vectors of its length, the same for the same text, recording each call', async () => {
    const embedder = new HashEmbedder({ dimensions: 64 });
    const { vectors } = await embedder.embed(['Cats chase mice', 'Cats chase mice']);
    expect(vectors[0]).toHaveLength(64);
    expect(vectors[0]).toEqual(vectors[1]);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1, 10);
    expect(embedder.calls).toEqual([['Cats chase mice', 'Cats chase mice']]);
  });

  it('scores texts that share words above texts that do not, ignoring case, stop words and plurals', () => {
    const embedder = new HashEmbedder();
    const query = embedder.vectorOf('Which cat chases the mouse?');
    const near = embedder.vectorOf('My CATS chase a mouse');
    const far = embedder.vectorOf('Quarterly revenue grew in Europe');
    expect(cosine(query, near)).toBeGreaterThan(0.6);
    expect(Math.abs(cosine(query, far))).toBeLessThan(0.3);
  });

  it('gives a text without words the zero vector', () => {
    expect(new HashEmbedder({ dimensions: 8 }).vectorOf('… !!')).toEqual(new Array(8).fill(0));
  });
});
