import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_ARGS_BYTES, scriptWords } from '../../../src/run/args.js';
import { checkArgumentSources, readArguments } from '../../../src/run/args-input.js';

const io = (stdin: string) => ({ cwd: '/', stdin: Readable.from([stdin]) as Readable & { isTTY?: boolean } });

describe('scriptWords', () => {
  it('are command-line words, as a JSON list of them', () => {
    expect(scriptWords(['Alice', '--loud'])).toEqual({ argv: ['Alice', '--loud'], json: '["Alice","--loud"]' });
  });

  it('keep to the bounds of --args lists', () => {
    expect(() => scriptWords(Array.from({ length: 101 }, () => 'w'))).toThrow(
      'the words after the script: 101 command-line words, more than the 100 allowed',
    );
    expect(() => scriptWords(['x'.repeat(MAX_ARGS_BYTES)])).toThrow(/take 4097 bytes, more than the 4096 allowed/);
  });
});

describe('readArguments and checkArgumentSources', () => {
  it('takes the words ahead of stdin, which the script then does not get as arguments', async () => {
    expect(await readArguments({ words: ['a', 'b'] }, io('{"x": 1}'), 1)).toEqual({
      argv: ['a', 'b'],
      json: '["a","b"]',
    });
    expect(await readArguments({ words: [] }, io('{"x": 1}'), 1)).toEqual({ args: { x: 1 }, json: '{"x":1}' });
  });

  it.each([
    [{ words: ['a'], args: '{}' }, 'give the arguments once: words after the script, or --args, not both'],
    [{ words: ['a'], argsFile: 'f' }, 'give the arguments once: words after the script, or --args-file, not both'],
    [{ args: '{}', argsFile: 'f' }, 'give the arguments once: --args or --args-file, not both'],
  ])('refuses %j', (options, message) => {
    expect(() => checkArgumentSources(options)).toThrow(message);
  });

  it('allows one source, or none', () => {
    for (const options of [{}, { words: [] }, { words: ['a'] }, { args: '{}' }, { argsFile: '-' }])
      expect(() => checkArgumentSources(options)).not.toThrow();
  });
});
