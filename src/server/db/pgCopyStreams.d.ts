// pg-copy-streams ships no types: the one function Cartograph calls, as the package documents it.
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  import type { Submittable } from 'pg';

  /** A `copy ... from stdin` statement: submitted on a client, it is the writable stream of the statement's input. */
  export function from(statement: string): Submittable & Writable;
}
