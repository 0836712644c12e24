import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import { CopyJson } from '../../src/server/db/copyText.js';
import { engines, openScratchDatabase } from './harness.js';

// Values a source may send, written with COPY and read back as they were given (NUL characters, which no text of
// PostgreSQL can hold, are left out).
const hostile = ['tab\there', 'a written \\u0000 stays', 'line\nbreak\r\n', 'back\\slash \\N \\t', '"quoted", {braces}', 'ünïcødé ✓ 𝄞', '', 'NULL', '\\', 'nul\0byte'];

describe.each(engines)('COPY of rows on %s', (engine) => {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openScratchDatabase(engine));
    await db.exec('create table copied (id int, label text, tags text[], document jsonb, score float8, seen timestamptz)');
  });
  afterAll(() => close());

  it('writes text, arrays, JSON, numbers, dates and nulls as they were given', async () => {
    const seen = new Date('2026-11-27T10:00:00.000Z');
    const rows = hostile.map((text, index) => [index, text, [text, null, 'x'], new CopyJson([{ evidence: text }]), index / 3, seen]);
    await db.copyRows('copied', ['id', 'label', 'tags', 'document', 'score', 'seen'], [...rows, [99, null, [], { plain: true }, null, null]]);
    const read = await db.query<{ id: number; label: string | null; tags: (string | null)[]; document: unknown; score: number | null; seen: Date | null }>('select * from copied order by id');
    const expected = (text: string) => text.replace('\0', '');
    expect(read.map((row) => row.label)).toEqual([...hostile.map(expected), null]);
    expect(read.map((row) => row.tags)).toEqual([...hostile.map((text) => [expected(text), null, 'x']), []]);
    expect(read.map((row) => row.document)).toEqual([...hostile.map((text) => [{ evidence: expected(text) }]), { plain: true }]);
    expect(read[4].score).toBeCloseTo(4 / 3, 12);
    expect(new Date(read[0].seen!).toISOString()).toBe(seen.toISOString());
  });

  it('copies inside a transaction, and nothing of it stays when the transaction fails', async () => {
    await expect(db.transaction(async (connection) => {
      await connection.copyRows('copied', ['id', 'label'], [[1000, 'inside']]);
      expect(await connection.query('select label from copied where id = 1000')).toEqual([{ label: 'inside' }]);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    expect(await db.query('select label from copied where id = 1000')).toEqual([]);
  });

  it('refuses a row the table cannot take, and a name that is not a plain SQL name', async () => {
    await expect(db.copyRows('copied', ['id'], [['not a number']])).rejects.toThrow(/integer/);
    await expect(db.copyRows('copied; drop table copied', ['id'], [[1]])).rejects.toThrow(/plain SQL name/);
    // The connection that failed is usable afterwards (PostgreSQL: it went back to the pool discarded).
    expect(await db.query('select count(*)::int as count from copied')).toEqual([{ count: hostile.length + 1 }]);
  });
});
