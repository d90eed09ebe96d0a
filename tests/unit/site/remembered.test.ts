import { describe, expect, it } from 'vitest';
import { remembered } from '../../../src/lib/site/remembered.ts';

describe('remembered', () => {
  it('works out each input once and gives the same answer again', () => {
    const asked: string[] = [];
    const shout = remembered((input) => {
      asked.push(input);
      return input.toUpperCase();
    });
    expect([shout('a'), shout('b'), shout('a'), shout('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(asked).toEqual(['a', 'b']);
  });

  it('keeps answering rightly past the most inputs it keeps', () => {
    let calls = 0;
    const length = remembered((input) => {
      calls++;
      return input.length;
    });
    for (let i = 0; i < 25_000; i++) expect(length(`x${i}`)).toBe(String(i).length + 1);
    expect(length('x0')).toBe(2);
    expect(calls).toBe(25_001);
  });
});
