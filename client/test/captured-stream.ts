// A stream that keeps what a progress display writes, as a terminal (wide
// enough that no line is cut) or as a log.
export function capturedStream(isTTY: boolean): { isTTY: boolean; columns: number; text: string; write(s: string): void } {
  return {
    isTTY,
    columns: 200,
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
}
