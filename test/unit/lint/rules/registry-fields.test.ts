import { it } from 'vitest';
import rule from '../../../../src/lint/rules/registry-fields.js';
import { testRule } from '../../../helpers/rule-tester.js';

const base = { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in' };
const manifest = (extra: Record<string, unknown>) => ({
  'manifest.json': JSON.stringify({ ...base, ...extra }, null, 2),
});

it('registry-fields', () =>
  testRule(rule, {
    valid: [
      { tree: manifest({}) },
      { tree: manifest({ metadata: { usedBy: ['x'] }, updated: '2024-01-01' }) },
      { tree: manifest({ context: ['usedBy.md'] }), folder: 'demo' },
    ],
    invalid: [
      {
        tree: manifest({ usedBy: ['agent-1'] }),
        messages: [/"usedBy" is written by the registry, not by hand; expected manifest.json without it/],
        lines: [7],
      },
      {
        tree: manifest({ registeredAt: '2024-01-01T00:00:00Z', usedBy: [], updatedAt: '2024-02-01T00:00:00Z' }),
        messages: [/"usedBy"/, /"registeredAt"/, /"updatedAt"/],
        lines: [8, 7, 9],
      },
      // Even an empty or null value was written by hand.
      { tree: manifest({ updatedAt: null }), messages: [/"updatedAt"/] },
    ],
  }));
