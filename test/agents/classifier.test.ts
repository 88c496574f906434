import { describe, expect, it } from 'vitest';
import {
  type Classification,
  classifyQuery,
  DEFAULT_CLASSIFIER_PATTERNS,
} from '../../src/agents/routing/index.js';

type Row = [query: string, expected: Pick<Classification, 'complexity' | 'confident'>, reason: RegExp];

const simple = (confident = true) => ({ complexity: 'simple' as const, confident });
const complex = (confident = true) => ({ complexity: 'complex' as const, confident });

describe('classifyQuery', () => {
  const table: Row[] = [
    ['What is TypeScript?', simple(), /short query \(3 words\)/],
    ['First read the config file, then update the port number', complex(), /multi-step pattern "First read/],
    ['Go through step 1 and step 2 of the migration guide', complex(), /multi-step pattern "step 1"/],
    ['Download the dataset and then compute the averages please', complex(), /"and then"/],
    ['Clean the data. After that, plot the distribution of ages', complex(), /"After that"/],
    ['Do this:\n1. fetch the page\n2. extract the links', complex(), /multi-step pattern "1\. fetch/],
    [
      'Build a complete dashboard for our sales numbers',
      complex(),
      /complexity pattern "complete dashboard"/,
    ],
    [
      'Please create a REST API with authentication for the shop',
      complex(),
      /complexity pattern "create a REST/,
    ],
    ['Explain how photosynthesis works in simple terms', simple(), /no multi-step signal/],
    // The seed's false positives: one weak word is complex but not confident.
    ['What should I read next about distributed systems?', complex(false), /weak signal "next"/],
    ['I finally got the build working, thank you', complex(false), /weak signal "finally"/],
    ['Summarise the business plan of this startup for me', complex(false), /weak signal "plan"/],
    ['Explain step by step how TLS handshakes work', complex(false), /weak signal "step by step"/],
    // Two different weak signals agree.
    ['Make a comprehensive plan for the office move', complex(), /weak signals "plan", "comprehensive"/],
    ['Next copy the files and finally delete the old folder', complex(), /weak signals "Next", "finally"/],
  ];

  for (const [query, expected, reason] of table) {
    it(`${expected.complexity}${expected.confident ? '' : ' (unsure)'}: ${JSON.stringify(query)}`, () => {
      const result = classifyQuery(query);
      expect(result).toMatchObject(expected);
      expect(result.reason).toMatch(reason);
    });
  }

  it('classifies a dedicated mode as simple before any pattern', () => {
    const result = classifyQuery('First gather sources, then write a comprehensive plan', {
      mode: 'Research',
    });
    expect(result).toEqual({ complexity: 'simple', reason: 'dedicated mode "research"', confident: true });
  });

  it('does not treat an ordinary mode as dedicated, and honours custom dedicated modes', () => {
    const query = 'First gather sources, then write the summary';
    expect(classifyQuery(query, { mode: 'task' }).complexity).toBe('complex');
    expect(classifyQuery(query, { mode: 'task', directModes: ['task'] }).complexity).toBe('simple');
  });

  it('classifies a query with selected skills as simple', () => {
    expect(classifyQuery('First do this, then that, then more', { skills: ['app_builder'] })).toMatchObject({
      complexity: 'simple',
      reason: 'skill selected: app_builder',
    });
  });

  it('counts words for the short-query rule, with a configurable minimum', () => {
    expect(classifyQuery('first this then that').complexity).toBe('simple');
    expect(classifyQuery('first this then that now').complexity).toBe('complex');
    expect(classifyQuery('first this then that', { minWords: 3 }).complexity).toBe('complex');
  });

  it('marks a long query without signals as simple but not confident', () => {
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    expect(classifyQuery(long)).toMatchObject({ complexity: 'simple', confident: false });
    expect(classifyQuery(long, { longQueryWords: 100 })).toMatchObject({
      complexity: 'simple',
      confident: true,
    });
  });

  it('uses configured pattern sets in place of the defaults', () => {
    const query = 'Please migrate the database schema to version two';
    expect(classifyQuery(query).complexity).toBe('simple');
    expect(classifyQuery(query, { patterns: { complexity: [/\bmigrate\b/i] } })).toMatchObject({
      complexity: 'complex',
      confident: true,
      reason: 'complexity pattern "migrate"',
    });
    const noWeak = classifyQuery('What should I read next about distributed systems?', {
      patterns: { weak: [] },
    });
    expect(noWeak).toMatchObject({ complexity: 'simple', confident: true });
    expect(DEFAULT_CLASSIFIER_PATTERNS.weak.length).toBeGreaterThan(0);
  });

  it('treats global and sticky patterns like plain ones on every call', () => {
    const global = { complexity: [/\bmigrate\b/gi] };
    const sticky = { multiStep: [/\bthen\b/y] };
    for (let i = 0; i < 3; i++) {
      expect(classifyQuery('Please migrate the database to postgres', { patterns: global })).toMatchObject({
        complexity: 'complex',
      });
      expect(classifyQuery('Copy the files over and then reindex', { patterns: sticky })).toMatchObject({
        complexity: 'complex',
        reason: 'multi-step pattern "then"',
      });
    }
  });
});
