import type { StorageLike } from '../../../../src/api/actors';

/** An in-memory Storage with a switch to make writes fail (quota exceeded, privacy mode). */
export class FakeStorage implements StorageLike {
  readonly items = new Map<string, string>();
  failWrites = false;

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [key, value] of Object.entries(initial)) this.items.set(key, value);
  }

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    if (this.failWrites) throw new DOMException('quota exceeded', 'QuotaExceededError');
    this.items.set(key, String(value));
  }

  removeItem(key: string): void {
    if (this.failWrites) throw new DOMException('blocked', 'SecurityError');
    this.items.delete(key);
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries(this.items);
  }
}
