import { describe, expect, it } from 'vitest';
import { mayBeTyped, typedAs } from '../../../src/formats/yaml-scalars.js';

// What PyYAML (YAML 1.1) made of each plain scalar, checked by hand with yaml.safe_load; 1e3 and 0o17 are YAML 1.2
// core schema numbers that PyYAML keeps as text, and count as typed here (either reader may meet the file).
const TYPED: [string, string][] = [
  ['true', 'a boolean'],
  ['True', 'a boolean'],
  ['TRUE', 'a boolean'],
  ['Yes', 'a boolean'],
  ['YES', 'a boolean'],
  ['On', 'a boolean'],
  ['OFF', 'a boolean'],
  ['no', 'a boolean'],
  ['null', "YAML's null (no value)"],
  ['Null', "YAML's null (no value)"],
  ['NULL', "YAML's null (no value)"],
  ['~', "YAML's null (no value)"],
  ['1:30', 'a number'],
  ['-1:30', 'a number'],
  ['190:20:30', 'a number'],
  ['1:30.5', 'a number'],
  ['0b1010', 'a number'],
  ['0755', 'a number'],
  ['0x_1F', 'a number'],
  ['1_000', 'a number'],
  ['.5', 'a number'],
  ['+.inf', 'a number'],
  ['.NaN', 'a number'],
  ['1e3', 'a number'],
  ['0o17', 'a number'],
  ['2024-01-01', 'a date (a YAML 1.1 timestamp)'],
];
const TEXT = ['tRUE', 'nUll', 'yEs', 'y', 'n', '01:30', '1:60', 'Nul', 'trueish', 'version 2', '0b102', '.INf'];

describe('typedAs', () => {
  it.each(TYPED)('%s is typed as %s', (token, as) => {
    expect(typedAs(token)).toBe(as);
    expect(mayBeTyped(token)).toBe(true);
  });
  it.each(TEXT)('%s is text to every reader', (token) => {
    expect(typedAs(token)).toBeUndefined();
  });
});
