// The tokens a SQL Server answers with, written as MS-TDS (2.2.7) lays them out, for the TDS test server: login
// acknowledgement, environment changes, messages, column metadata, rows and DONE. Only the data types the SQL adapters
// read are written (int, bigint, bit, float, datetime, uniqueidentifier, nvarchar), each as its nullable form.

export type TdsType = 'int' | 'bigint' | 'bit' | 'float' | 'datetime' | 'uniqueidentifier' | 'nvarchar';
export type TdsColumn = { name: string; type: TdsType };
export type TdsMessage = { number: number; message: string; state?: number; class?: number };

const token = { colMetadata: 0x81, error: 0xaa, info: 0xab, loginAck: 0xad, row: 0xd1, envChange: 0xe3, sspi: 0xed, done: 0xfd } as const;
// DONE status bits (2.2.7.6): more results follow, an error ended the statement, the row count is valid, attention acknowledged.
export const doneStatus = { final: 0x00, more: 0x01, error: 0x02, count: 0x10, attention: 0x20 } as const;
// SQL_Latin1_General_CP1_CI_AS, the default server collation of an English SQL Server install.
const defaultCollation = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34]);
const serverName = 'SQL01';

const u8 = (value: number) => Buffer.from([value]);
function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
}
function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
}
const ucs2 = (text: string) => Buffer.from(text, 'ucs2');
/** B_VARCHAR: a one-byte character count, then UCS-2. */
const bVarChar = (text: string) => Buffer.concat([u8(text.length), ucs2(text)]);
/** US_VARCHAR: a two-byte character count, then UCS-2. */
const usVarChar = (text: string) => Buffer.concat([u16(text.length), ucs2(text)]);
/** A token whose body starts with its own two-byte length. */
const sized = (type: number, body: Buffer) => Buffer.concat([u8(type), u16(body.length), body]);

/** ENVCHANGE with text values: 1 database, 2 language, 4 packet size. */
export function envChange(type: 1 | 2 | 4, newValue: string, oldValue: string): Buffer {
  return sized(token.envChange, Buffer.concat([u8(type), bVarChar(newValue), bVarChar(oldValue)]));
}

/** ENVCHANGE 7: the SQL collation of the database (five bytes; the old value is empty). */
export function collationChange(): Buffer {
  return sized(token.envChange, Buffer.concat([u8(7), u8(defaultCollation.length), defaultCollation, u8(0)]));
}

/** ERROR or INFO as SQL Server sends them: number, state, class, text, server, procedure, line. */
export function message(kind: 'error' | 'info', { number, message: text, state = 1, class: severity = kind === 'error' ? 16 : 0 }: TdsMessage): Buffer {
  const body = Buffer.concat([u32(number), u8(state), u8(severity), usVarChar(text), bVarChar(serverName), bVarChar(''), u32(1)]);
  return sized(kind === 'error' ? token.error : token.info, body);
}

/** LOGINACK: SQL interface, TDS 7.4, the product name and version 16.0.1000 (SQL Server 2022). */
export function loginAck(): Buffer {
  const version = Buffer.alloc(4);
  version.writeUInt32BE(0x74000004);
  return sized(token.loginAck, Buffer.concat([u8(1), version, bVarChar('Microsoft SQL Server'), Buffer.from([16, 0, 0x03, 0xe8])]));
}

/** SSPI: an authentication token (an NTLM challenge) for the client to answer. */
export function sspi(data: Buffer): Buffer {
  return sized(token.sspi, data);
}

/** DONE with its status, the current command (0xC1 SELECT) and the row count. */
export function done(status: number, rowCount = 0, command = 0xc1): Buffer {
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(rowCount));
  return Buffer.concat([u8(token.done), u16(status), u16(command), count]);
}

/** TYPE_INFO of each type: its nullable type byte and length (and, for nvarchar, its collation). */
function typeInfo(type: TdsType): Buffer {
  switch (type) {
    case 'int':
      return Buffer.from([0x26, 4]);
    case 'bigint':
      return Buffer.from([0x26, 8]);
    case 'bit':
      return Buffer.from([0x68, 1]);
    case 'float':
      return Buffer.from([0x6d, 8]);
    case 'datetime':
      return Buffer.from([0x6f, 8]);
    case 'uniqueidentifier':
      return Buffer.from([0x24, 16]);
    case 'nvarchar':
      // nvarchar(4000): the longest non-MAX length, whose values are sent whole rather than in chunks.
      return Buffer.concat([u8(0xe7), u16(8000), defaultCollation]);
  }
}

/** COLMETADATA: the column count, then per column its user type, flags (nullable), type info and name. */
export function colMetadata(columns: TdsColumn[]): Buffer {
  return Buffer.concat([u8(token.colMetadata), u16(columns.length), ...columns.map((column) => Buffer.concat([u32(0), u16(0x0001), typeInfo(column.type), bVarChar(column.name)]))]);
}

/** A uniqueidentifier's 16 bytes: its first three groups little-endian, as SQL Server stores them. */
function guidBytes(text: string): Buffer {
  const hex = text.replace(/[{}-]/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a uniqueidentifier: ${text}`);
  const bytes = Buffer.from(hex, 'hex');
  return Buffer.concat([Buffer.from(bytes.subarray(0, 4)).reverse(), Buffer.from(bytes.subarray(4, 6)).reverse(), Buffer.from(bytes.subarray(6, 8)).reverse(), bytes.subarray(8)]);
}

/** datetime: days since 1900-01-01 and the time of day in 1/300 seconds. */
function datetimeBytes(value: unknown): Buffer {
  const time = new Date(String(value)).getTime();
  if (Number.isNaN(time)) throw new Error(`not a datetime: ${String(value)}`);
  const day = 86_400_000;
  const days = Math.floor((time - Date.UTC(1900, 0, 1)) / day);
  const ticks = Math.round(((time - Date.UTC(1900, 0, 1)) % day + day) % day * 0.3);
  const buffer = Buffer.alloc(8);
  buffer.writeInt32LE(days);
  buffer.writeUInt32LE(ticks, 4);
  return buffer;
}

/** One value as ROW data: its length prefix (0, or 0xFFFF for nvarchar, is NULL), then its bytes. */
function valueBytes(type: TdsType, value: unknown): Buffer {
  if (value === null || value === undefined) return type === 'nvarchar' ? u16(0xffff) : u8(0);
  switch (type) {
    case 'int': {
      const buffer = Buffer.alloc(4);
      buffer.writeInt32LE(Number(value));
      return Buffer.concat([u8(4), buffer]);
    }
    case 'bigint': {
      const buffer = Buffer.alloc(8);
      buffer.writeBigInt64LE(BigInt(value as number | string));
      return Buffer.concat([u8(8), buffer]);
    }
    case 'bit':
      return Buffer.from([1, value === true || value === 1 ? 1 : 0]);
    case 'float': {
      const buffer = Buffer.alloc(8);
      buffer.writeDoubleLE(Number(value));
      return Buffer.concat([u8(8), buffer]);
    }
    case 'datetime':
      return Buffer.concat([u8(8), datetimeBytes(value)]);
    case 'uniqueidentifier':
      return Buffer.concat([u8(16), guidBytes(String(value))]);
    case 'nvarchar': {
      const text = ucs2(String(value));
      if (text.length > 8000) throw new Error('an nvarchar(4000) value is longer than 4000 characters');
      return Buffer.concat([u16(text.length), text]);
    }
  }
}

/** ROW: each column's value in column order. */
export function row(columns: TdsColumn[], values: unknown[]): Buffer {
  return Buffer.concat([u8(token.row), ...columns.map((column, index) => valueBytes(column.type, values[index]))]);
}
