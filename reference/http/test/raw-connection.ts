// One keep-alive HTTP/1.1 connection driven by hand: bytes go out exactly as
// given and when the test says, and answers are read as they arrive, so a
// test can tell whether an answer came before its request's last byte left.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private readonly socket: Socket;
  private buffered = '';
  private readonly answers: RawAnswer[] = [];
  private waiting: ((answer: RawAnswer) => void) | null = null;
  private failure: Error | null = null;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.read(chunk.toString('latin1')));
    socket.on('error', (err) => (this.failure = err));
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes and waits until the bytes have left for the kernel. */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
  }

  /** The next answer on this connection, in order. */
  answer(): Promise<RawAnswer> {
    if (this.answers.length > 0) return Promise.resolve(this.answers.shift()!);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Whether the server closes the connection within `ms`. */
  closedWithin(ms: number): Promise<boolean> {
    if (this.socket.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private read(text: string): void {
    this.buffered += text;
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...lines] = this.buffered.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (this.buffered.length < end + 4 + length) return;
      const answer = { status: Number(statusLine!.split(' ')[1]), headers, body: this.buffered.slice(end + 4, end + 4 + length) };
      this.buffered = this.buffered.slice(end + 4 + length);
      if (this.waiting) {
        const waiting = this.waiting;
        this.waiting = null;
        waiting(answer);
      } else this.answers.push(answer);
    }
  }
}
