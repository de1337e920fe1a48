/**
 * k6's console: its runtime has one, but @types/k6 leaves it to the DOM or Node types, and the k6 layer has neither
 * (tsconfig.k6.json). These are the levels k6 prints at. Declared the way Node's types declare theirs (an interface
 * and a global var), so the two merge where both are seen (the editors' union tsconfig.json).
 */
interface Console {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
}

// A global var is how an ambient global is declared (let/const would clash with Node's declaration).
// eslint-disable-next-line no-var
declare var console: Console;
