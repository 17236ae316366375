// The channel between the judge's worker and a judged module's worker: three byte rings in
// one SharedArrayBuffer (a "slot"), each written by one side and read by the other, like the
// three pipes between the command line's judge and its judged process:
//
//   REQUESTS  judge -> module     the judge's pickled requests
//   REPLIES   module -> judge     the module's pickled replies
//   OUTPUT    module -> judge     what the module printed
//
// A writer blocks while its ring is full (Atomics.wait, in a worker), as on a full pipe.
// Every write by the module, and its end, rings the slot's bell, on which the judge waits
// with its time limit.  kata/process/browser.py is the Python side of both ends.

export const REQUESTS = 0;
export const REPLIES = 1;
export const OUTPUT = 2;
const SIZES = [1 << 20, 1 << 20, 1 << 16]; // bytes, each a power of two

// The header: Int32 words.
const BELL = 0; // counts writes by the module's side, and its end
const STATE = 1; // FREE, SERVING or ENDED
const STATUS = 2; // how it ended, when it did (a number), or NO_STATUS
const WRITTEN = (ring) => 4 + 2 * ring; // bytes ever written, modulo 2**32
const READ = (ring) => 5 + 2 * ring; // bytes ever read, modulo 2**32
const HEADER_BYTES = 64;

export const FREE = 0;
export const SERVING = 1;
export const ENDED = 2;
export const NO_STATUS = -1_000_000;

export const SLOT_BYTES = HEADER_BYTES + SIZES.reduce((a, b) => a + b, 0);

/** A view of one slot's shared memory, from either side. */
export class Slot {
  constructor(buffer) {
    this.buffer = buffer;
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.rings = [];
    let offset = HEADER_BYTES;
    for (const size of SIZES) {
      this.rings.push(new Uint8Array(buffer, offset, size));
      offset += size;
    }
  }

  static create() {
    return new Slot(new SharedArrayBuffer(SLOT_BYTES));
  }

  /** Everything back to empty, for a new worker (only while no worker uses the slot). */
  reset() {
    this.header.fill(0);
    Atomics.store(this.header, STATUS, NO_STATUS);
  }

  state() {
    return Atomics.load(this.header, STATE);
  }

  bell() {
    return Atomics.load(this.header, BELL);
  }

  ring() {
    Atomics.add(this.header, BELL, 1);
    Atomics.notify(this.header, BELL);
  }

  /** Wait until the bell has rung past `seen`, or `ms` have passed. */
  waitBell(seen, ms) {
    if (ms > 0) Atomics.wait(this.header, BELL, seen, ms);
  }

  serving() {
    Atomics.store(this.header, STATE, SERVING);
    this.ring();
  }

  /** The module's side has ended (its worker stopped, crashed or was ended). */
  end(status) {
    if (Atomics.load(this.header, STATE) === ENDED) return;
    Atomics.store(this.header, STATUS, status ?? NO_STATUS);
    Atomics.store(this.header, STATE, ENDED);
    this.ring();
    Atomics.notify(this.header, READ(REQUESTS));
    Atomics.notify(this.header, READ(REPLIES));
    Atomics.notify(this.header, READ(OUTPUT));
    Atomics.notify(this.header, WRITTEN(REQUESTS));
  }

  status() {
    const status = Atomics.load(this.header, STATUS);
    return status === NO_STATUS ? null : status;
  }

  available(ring) {
    return (Atomics.load(this.header, WRITTEN(ring)) - Atomics.load(this.header, READ(ring))) >>> 0;
  }

  /** Write all of `data`, waiting while the ring is full; the count written, short only
   * when the other side has ended. */
  write(ring, data, { byModule = false } = {}) {
    const buffer = this.rings[ring];
    const size = buffer.length;
    let done = 0;
    while (done < data.length) {
      const written = Atomics.load(this.header, WRITTEN(ring));
      const read = Atomics.load(this.header, READ(ring));
      const free = size - ((written - read) >>> 0);
      if (free === 0) {
        if (Atomics.load(this.header, STATE) === ENDED) return done;
        Atomics.wait(this.header, READ(ring), read, 200);
        continue;
      }
      const count = Math.min(free, data.length - done);
      const at = (written >>> 0) & (size - 1);
      const first = Math.min(count, size - at);
      buffer.set(data.subarray(done, done + first), at);
      if (count > first) buffer.set(data.subarray(done + first, done + count), 0);
      Atomics.store(this.header, WRITTEN(ring), (written + count) | 0);
      Atomics.notify(this.header, WRITTEN(ring));
      if (byModule) this.ring();
      done += count;
    }
    return done;
  }

  /** Up to `most` bytes from the ring, now (an empty array if none). */
  read(ring, most) {
    const buffer = this.rings[ring];
    const size = buffer.length;
    const written = Atomics.load(this.header, WRITTEN(ring));
    const read = Atomics.load(this.header, READ(ring));
    const count = Math.min((written - read) >>> 0, most);
    const out = new Uint8Array(count);
    if (count) {
      const at = (read >>> 0) & (size - 1);
      const first = Math.min(count, size - at);
      out.set(buffer.subarray(at, at + first), 0);
      if (count > first) out.set(buffer.subarray(0, count - first), first);
      Atomics.store(this.header, READ(ring), (read + count) | 0);
      Atomics.notify(this.header, READ(ring));
    }
    return out;
  }

  /** The judge's look at the module's side, in one call: what it has printed and replied
   * since the last look (at most `most` bytes of each), waiting up to `ms` for either if
   * neither has come, and whether it has ended.  One array: [ended (0 or 1), the output's
   * length (4 bytes, little-endian), the output, the replies]. */
  poll(most, ms) {
    const seen = this.bell();
    const idle = () => !this.available(OUTPUT) && !this.available(REPLIES);
    if (idle() && this.state() !== ENDED) this.waitBell(seen, ms);
    const ended = this.state() === ENDED; // read before the rings: what it wrote is in them
    const output = this.read(OUTPUT, most);
    const replies = this.read(REPLIES, most);
    const out = new Uint8Array(5 + output.length + replies.length);
    out[0] = ended ? 1 : 0;
    new DataView(out.buffer).setUint32(1, output.length, true);
    out.set(output, 5);
    out.set(replies, 5 + output.length);
    return out;
  }

  /** At least one byte from the ring, waiting for it as long as it takes. */
  readWaiting(ring, most) {
    for (;;) {
      const written = Atomics.load(this.header, WRITTEN(ring));
      if ((written - Atomics.load(this.header, READ(ring))) >>> 0) return this.read(ring, most);
      Atomics.wait(this.header, WRITTEN(ring), written, 1000);
    }
  }
}

/** A Python bytes-like object (a PyProxy) as a Uint8Array, for `use`, then released. */
export function withBytes(proxy, use) {
  if (proxy instanceof Uint8Array) return use(proxy);
  const view = proxy.getBuffer("u8");
  try {
    return use(view.data);
  } finally {
    view.release();
  }
}
