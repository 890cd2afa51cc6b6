// The house in wings: imports flow one way, from commands down through the wings to the shared floors.
// A wing never imports another wing, and a floor never imports anything above it.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Each top-level part of src/ and its floor: a part may import its own folder and any part on a lower floor. */
const FLOORS: Record<string, number> = {
  'errors.ts': 0,
  'context.ts': 0,
  model: 1,
  formats: 2,
  fs: 3,
  proc: 3,
  skill: 4,
  config: 4,
  tokens: 4,
  fetch: 4,
  registry: 5,
  resolve: 6,
  // The wings: one feature each, side by side on one floor, so none can import another.
  install: 7,
  pack: 7,
  run: 7,
  prompt: 7,
  sync: 7,
  serve: 7,
  lint: 7,
  init: 7,
  doctor: 7,
  ui: 8,
  commands: 9,
  cli: 10,
  'main.ts': 11,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const partOf = (file: string): string => relative(SRC, file).replace(/\.js$/, '.ts').split('/')[0]!;

/** Every relative import of a file, static or dynamic, as the part of src/ it lands in. */
function importsOf(file: string): { spec: string; part: string }[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => ({ spec, part: partOf(resolve(dirname(file), spec)) }));
}

describe('the layout of src/', () => {
  const files = sources(SRC);

  it('names a floor for every top-level part of src/', () => {
    const parts = new Set(files.map(partOf));
    expect([...parts].filter((p) => !(p in FLOORS))).toEqual([]);
  });

  it('imports only downward: a part imports its own folder or a lower floor, never a wing beside it', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = partOf(file);
      for (const { spec, part } of importsOf(file)) {
        if (part === from) continue;
        if (!(FLOORS[part]! < FLOORS[from]!)) wrong.push(`${relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps every file under 500 lines and no folder over 30% of the code', () => {
    const lines = new Map(files.map((f) => [f, readFileSync(f, 'utf8').split('\n').length]));
    expect([...lines].filter(([, n]) => n > 500).map(([f, n]) => `${relative(SRC, f)}: ${n}`)).toEqual([]);
    const total = [...lines.values()].reduce((a, b) => a + b, 0);
    // Each folder counts its own files and, for a top-level part of src/, everything below it.
    const byFolder = new Map<string, number>();
    for (const [f, n] of lines) {
      const folders = new Set([dirname(f), join(SRC, partOf(f))]);
      for (const d of folders) if (d !== SRC.replace(/\/$/, '')) byFolder.set(d, (byFolder.get(d) ?? 0) + n);
    }
    const crowded = [...byFolder]
      .filter(([, n]) => n / total > 0.3)
      .map(([d, n]) => `${relative(SRC, d) || '.'}: ${Math.round((100 * n) / total)}%`);
    expect(crowded).toEqual([]);
  });
});
