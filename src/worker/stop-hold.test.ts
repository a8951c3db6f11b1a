import { describe, expect, it } from 'vitest';
import { StopHold } from './stop-hold.js';

describe('StopHold', () => {
  it('holds back what could begin a stop string, and releases it once it cannot', () => {
    const hold = new StopHold(['END.', 'zz']);
    expect(hold.push('Hello E')).toBe('Hello ');
    expect(hold.push('N')).toBe('');
    expect(hold.push('X z')).toBe('ENX ');
    expect(hold.push('a')).toBe('za');
    expect(hold.end('Hello ENX za')).toBe('');
  });

  it('takes the rest from the engine\'s final text: nothing of a stop string it cut, all of a prefix it kept', () => {
    const cut = new StopHold(['END.']);
    expect(cut.push('Hi EN')).toBe('Hi ');
    expect(cut.end('Hi ')).toBe('');
    const kept = new StopHold(['END.']);
    expect(kept.push('Hi EN')).toBe('Hi ');
    expect(kept.end('Hi EN')).toBe('EN');
  });

  it('without stop strings it holds nothing', () => {
    const hold = new StopHold([]);
    expect(hold.push('abc')).toBe('abc');
    expect(hold.end('abc')).toBe('');
  });
});
