/**
 * Answers kept per distinct key, a bounded number of them. A fleet repeats the same few hundred OS strings,
 * manufacturers and models across its records, so each is read once per discovery; a source of endless distinct
 * values cannot grow the memo past `limit` (it starts again when full, which costs only a re-read).
 */
export class BoundedMemo<Value> {
  private readonly answers = new Map<string, Value>();

  constructor(private readonly limit: number) {}

  get(key: string): Value | undefined {
    return this.answers.get(key);
  }

  set(key: string, value: Value): Value {
    if (this.answers.size >= this.limit) this.answers.clear();
    this.answers.set(key, value);
    return value;
  }
}
