import { createParser, type EventSourceParser } from 'eventsource-parser';

/** What an `EventSplitter` hands out. */
export interface SplitEvents {
  /**
   * One event's data (its `data` lines joined with `\n`); `raw` is the event's exact text
   * (`data: …\n\n`) when that is also how it is written again, else null.
   */
  onData(data: string, raw: string | null): void;
  /** An event without data (a comment, an `event:` or `id:` line alone). */
  onOther(): void;
}

/**
 * Splits a server-sent event stream, fed as text in pieces cut anywhere, into its events' data.
 * OpenAI-compatible upstreams send `data: {…}\n\n` events: those are found with one `indexOf`
 * per event and handed out as slices of what was fed (no line-by-line parse, no string built per
 * event), so the relay can pass them on as they came. A stream with a carriage return anywhere
 * (CRLF or CR line ends) is handed to eventsource-parser from there on, which reads every line
 * ending the standard allows. What follows the last complete event waits for the next piece; an
 * event the stream never finishes is dropped, as the standard says.
 */
export class EventSplitter {
  /**
   * The text after the last complete event, kept as the pieces it came in: joining them on every
   * feed would copy an unfinished event again and again (quadratic in its size, an upstream that
   * never ends its event would hold the event loop), so they are joined once, when its end comes.
   */
  private rest: string[] = [];
  /** Whether the kept text ends with a newline (the piece fed next may end the event at once). */
  private restEndsWithNewline = false;
  private general: EventSourceParser | null = null;

  constructor(private readonly events: SplitEvents) {}

  /** Reads the next piece of the stream. */
  feed(text: string): void {
    if (this.general !== null) {
      this.general.feed(text);
      return;
    }
    if (text.includes('\r')) {
      const all = this.rest.join('') + text;
      this.rest = [];
      this.general = createParser({ onEvent: (event) => this.events.onData(event.data, null), onComment: () => this.events.onOther() });
      this.general.feed(all);
      return;
    }
    if (text === '') return;
    // An event's end in this piece, or across the boundary with the kept text; else keep the piece.
    const endsAcross = this.restEndsWithNewline && text.charCodeAt(0) === 10;
    if (!endsAcross && text.indexOf('\n\n') === -1) {
      this.rest.push(text);
      this.restEndsWithNewline = text.charCodeAt(text.length - 1) === 10;
      return;
    }
    const kept = this.rest.length === 0 ? '' : this.rest.join('');
    const all = kept === '' ? text : kept + text;
    let start = 0;
    for (let end = all.indexOf('\n\n', Math.max(0, kept.length - 1)); end !== -1; end = all.indexOf('\n\n', start)) {
      this.event(all, start, end);
      start = end + 2;
    }
    const after = start === 0 ? all : all.slice(start);
    this.rest = after === '' ? [] : [after];
    this.restEndsWithNewline = after.charCodeAt(after.length - 1) === 10;
  }

  /** The event `all[start, end)` (its lines, without the blank line that ends it). */
  private event(all: string, start: number, end: number): void {
    if (start === end) return;
    const newline = all.indexOf('\n', start);
    const oneLine = newline === -1 || newline >= end;
    if (oneLine && all.startsWith('data: ', start)) {
      this.events.onData(all.slice(start + 6, end), all.slice(start, end + 2));
      return;
    }
    // Several lines, or another field: read as the standard says (field, colon, one optional space).
    let data: string | null = null;
    for (let lineStart = start; lineStart < end; ) {
      const newlineAt = all.indexOf('\n', lineStart);
      const lineEnd = newlineAt === -1 || newlineAt > end ? end : newlineAt;
      // the line's first colon, searched within the line only (a search on to the end of the
      // text for every line without one would be quadratic in the event's size)
      let colon = lineStart;
      while (colon < lineEnd && all.charCodeAt(colon) !== 58) colon += 1;
      if (colon !== lineStart) {
        const hasValue = colon < lineEnd;
        const field = all.slice(lineStart, hasValue ? colon : lineEnd);
        if (field === 'data') {
          const valueStart = !hasValue ? lineEnd : all.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
          const value = all.slice(Math.min(valueStart, lineEnd), lineEnd);
          data = data === null ? value : `${data}\n${value}`;
        }
      }
      lineStart = lineEnd + 1;
    }
    if (data === null) this.events.onOther();
    else this.events.onData(data, null);
  }
}
