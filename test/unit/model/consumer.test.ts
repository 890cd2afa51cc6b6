import { describe, expect, it } from 'vitest';
import { consumerProblem } from '../../../src/model/consumer.js';

describe('consumerProblem', () => {
  it.each(['content-creator', 'Claude Code', 'résumé-bot', 'a'.repeat(100), '/home/me/project', '/srv/a.b/c'])(
    'accepts %s',
    (who) => expect(consumerProblem(who)).toBeUndefined(),
  );

  it.each([
    ['', 'is empty'],
    ['x\u001b]0;t\u0007', 'holds a control or formatting character'],
    ['a\u202eb', 'holds a control or formatting character'],
    ['z'.repeat(101), 'is 101 characters long (the limit is 100)'],
    ['../x', 'holds "/", a path separator (a project is recorded by its absolute path)'],
    ['a\\b', 'holds "\\", a path separator (a project is recorded by its absolute path)'],
    ['..', 'is made of dots alone'],
    ['/home/me/../etc', 'is a path with a ".." segment'],
    [`/${'p'.repeat(1024)}`, 'is a path of 1025 characters (the limit is 1024)'],
  ])('refuses %j: %s', (who, problem) => expect(consumerProblem(who)).toBe(problem));
});
