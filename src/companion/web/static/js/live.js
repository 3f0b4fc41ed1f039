// A table's live stream (GET /api/tables/{id}/stream, Server-Sent Events): every recorded
// entry, void and amendment reaches this page as it happens. When the stream drops, the page
// first fetches the table as it is now, then opens the stream again from there; offline it
// waits for the connection to return. A stream that ends by its lifetime (the server sends
// `event: reconnect`) is opened again at once from the last entry shown: nothing is missed.
const RETRY_MS = [500, 1000, 2000, 5000, 10000];

export class LiveTable {
  /**
   * @param {string} url the stream's URL
   * @param {{after: number, onEvent: (event: object) => void, onState: (state: string) => void,
   *   refetch: () => Promise<number|null>, kind?: string}} options `after`: the last entry this
   *   page shows; `refetch` brings the page up to date and answers the last entry it now shows
   *   (null when it could not); `kind`: the messages' SSE event name (`table`, or `event` for an
   *   event's leaderboard, whose ids are its versions).
   */
  constructor(url, { after, onEvent, onState, refetch, kind = "table" }) {
    this.url = url;
    this.kind = kind;
    this.after = after;
    this.onEvent = onEvent;
    this.onState = onState;
    this.refetch = refetch;
    this.source = null;
    this.failures = 0;
    this.timer = 0;
    window.addEventListener("online", () => this.recover());
    window.addEventListener("offline", () => this.stop("offline"));
  }

  start() {
    window.clearTimeout(this.timer);
    if (this.source) this.source.close();
    if (!navigator.onLine) {
      this.onState("offline");
      return;
    }
    const source = new EventSource(`${this.url}?after=${this.after}`);
    this.source = source;
    source.addEventListener("open", () => {
      this.failures = 0;
      this.onState("live");
    });
    source.addEventListener(this.kind, (message) => {
      const seq = Number(message.lastEventId);
      if (!Number.isInteger(seq) || seq <= this.after) return; // seen already
      this.after = seq;
      this.onEvent(JSON.parse(message.data));
    });
    source.addEventListener("reconnect", () => {
      if (this.source === source) this.start(); // the stream's lifetime is over: open it again
    });
    source.addEventListener("error", () => {
      // Dropped (or refused): fetch what we missed, then open the stream again from there.
      if (this.source !== source) return;
      source.close();
      this.source = null;
      this.onState(navigator.onLine ? "reconnecting" : "offline");
      const delay = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
      this.failures += 1;
      this.timer = window.setTimeout(() => this.recover(), delay);
    });
  }

  async recover() {
    window.clearTimeout(this.timer);
    if (!navigator.onLine) {
      this.onState("offline");
      return;
    }
    const last = await this.refetch();
    // The board is the truth: after a restored database its last entry can be lower than ours
    // (the server refuses a stream from beyond it); going lower only sends entries again.
    if (last !== null && last !== undefined) this.after = last;
    this.start();
  }

  stop(state) {
    window.clearTimeout(this.timer);
    if (this.source) this.source.close();
    this.source = null;
    this.onState(state);
  }
}
