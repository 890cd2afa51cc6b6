import { describe, expect, it } from 'vitest';
import { Sessions } from '../../../src/serve/sessions.js';

// The session table on a clock the test moves: what is closed for idleness, and what makes room past the limit.
function table(max = 3, idleMs = 1000) {
  let now = 0;
  const closed: string[] = [];
  const sessions = new Sessions<string>(
    { idleMs, max },
    (v) => closed.push(v),
    () => now,
  );
  return { sessions, closed, at: (t: number) => (now = t) };
}

describe('Sessions', () => {
  it('closes a session no request has used for the idle time, and keeps one used since', () => {
    const { sessions, closed, at } = table();
    sessions.add('a', 'A');
    sessions.end('a');
    sessions.add('b', 'B');
    sessions.end('b');
    at(600);
    sessions.begin('b');
    sessions.end('b');
    at(1000);
    expect(sessions.expire()).toEqual(['a']);
    expect(closed).toEqual(['A']);
    expect(sessions.get('a')).toBeUndefined();
    expect(sessions.get('b')).toBe('B');
    at(1600);
    expect(sessions.expire()).toEqual(['b']);
    expect(sessions.size).toBe(0);
  });

  it('never expires a session with a request in flight', () => {
    const { sessions, at } = table();
    sessions.add('a', 'A');
    sessions.end('a');
    sessions.add('busy', 'busy');
    at(5000);
    expect(sessions.expire()).toEqual(['a']);
    sessions.end('busy');
    at(6000);
    expect(sessions.expire()).toEqual(['busy']);
  });

  it('past the limit, closes the session used least recently to make room', () => {
    const { sessions, closed, at } = table(2);
    sessions.add('a', 'A');
    sessions.end('a');
    at(10);
    sessions.add('b', 'B');
    sessions.end('b');
    at(20);
    sessions.begin('a');
    sessions.end('a');
    expect(sessions.makeRoom()).toBe(true);
    expect(closed).toEqual(['B']);
    expect(sessions.size).toBe(1);
  });

  it('refuses to make room when every open session has a request in flight', () => {
    const { sessions, closed } = table(2);
    sessions.add('a', 'A');
    sessions.add('b', 'B');
    expect(sessions.makeRoom()).toBe(false);
    expect(closed).toEqual([]);
    sessions.end('b');
    expect(sessions.makeRoom()).toBe(true);
    expect(closed).toEqual(['B']);
  });
});
